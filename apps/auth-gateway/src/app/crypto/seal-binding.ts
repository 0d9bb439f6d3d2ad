/**
 * What a sealed value belongs to: it opens only for exactly these values (AES-GCM associated data). A
 * credential's secret and access are bound to where they are sent (ATS type, address, client id), so a row
 * changed outside a save no longer opens, and nothing is sent to the new address. ATS-B rows hold no address
 * column (null): a customer's data centre, learned at its login, is kept inside the sealed access, so it is
 * sealed and bound to the connector like the tokens beside it (a row copied from another connector does not
 * open), and its issuer checks it against the vendor's hosts before use.
 */
export type SealBinding =
  | {
      column: 'secret' | 'access';
      connectorId: string;
      atsType: string;
      baseUrl: string | null;
      clientId: string | null;
    }
  | { column: 'code_verifier'; connectorId: string; stateHash: string };

/** The format of the associated data (SealedSecret `v: 2`); format 1 bound the connector id alone. */
const SEAL_FORMAT = 'ats-connector/sealed/2';

/** Every field, in the order it is encoded: the encoding never depends on how the binding was built. */
const FIELD_ORDER = ['format', 'column', 'connectorId', 'atsType', 'baseUrl', 'clientId', 'stateHash'];

/** The binding as associated data: JSON with a fixed key order and the format marker first. */
export function associatedDataOf(binding: SealBinding): Buffer {
  return Buffer.from(JSON.stringify({ format: SEAL_FORMAT, ...binding }, FIELD_ORDER));
}

/** A connector credential's sealed column, bound to the row's values it is sent with. */
export function credentialBinding(
  row: { connectorId: string; atsType: string; baseUrl: string | null; clientId: string | null },
  column: 'secret' | 'access',
): SealBinding {
  return {
    column,
    connectorId: row.connectorId,
    atsType: row.atsType,
    baseUrl: row.baseUrl,
    clientId: row.clientId,
  };
}
