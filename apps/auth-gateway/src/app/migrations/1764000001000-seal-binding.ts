import { Logger } from '@nestjs/common';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { credentialBinding, type SealBinding } from '../crypto/seal-binding';
import { type SealedSecret, SealedSecretMismatchError, SecretBox } from '../crypto/secret-box';

const NAME = 'SealBinding1764000001000';

interface CredentialRow {
  connector_id: string;
  ats_type: string;
  base_url: string | null;
  client_id: string | null;
  secret: SealedSecret | null;
  access: SealedSecret | null;
}

interface StateRow {
  state_hash: string;
  connector_id: string;
  code_verifier: SealedSecret;
}

/**
 * Every secret sealed in format 1 (bound to the connector id alone) sealed again in format 2, bound to its
 * row's ATS type, address, client id and column (a PKCE verifier: its state hash and connector), so the
 * gateway never opens format 1 again. It needs the keys: the gateway runs it with its ENCRYPTION_KEYS (at
 * boot or `--migrate`); without them it runs only where nothing is sealed in format 1.
 */
export function sealBindingMigration(encryptionKeys: string): new () => MigrationInterface {
  return class SealBinding1764000001000 implements MigrationInterface {
    name = NAME;

    async up(queryRunner: QueryRunner): Promise<void> {
      const credentials = (await queryRunner.query(
        `SELECT connector_id, ats_type, base_url, client_id, secret, access FROM connector_credential
          WHERE secret->>'v' = '1' OR access->>'v' = '1' FOR UPDATE`,
      )) as CredentialRow[];
      const states = (await queryRunner.query(
        `SELECT state_hash, connector_id, code_verifier FROM oauth_state
          WHERE code_verifier->>'v' = '1' FOR UPDATE`,
      )) as StateRow[];
      if (credentials.length === 0 && states.length === 0) return;
      if (!encryptionKeys) {
        throw new Error(
          `${NAME}: ${credentials.length} credentials and ${states.length} login states hold secrets sealed in ` +
            'the old format; run the migration with ENCRYPTION_KEYS set (the keys auth-gateway runs with)',
        );
      }
      const reseal = resealWith(SecretBox.fromEnv(encryptionKeys));
      for (const row of credentials) {
        const owner = {
          connectorId: row.connector_id,
          atsType: row.ats_type,
          baseUrl: row.base_url,
          clientId: row.client_id,
        };
        await queryRunner.query(
          `UPDATE connector_credential SET secret = $2, access = $3 WHERE connector_id = $1`,
          [
            row.connector_id,
            json(reseal(row.secret, credentialBinding(owner, 'secret'))),
            json(reseal(row.access, credentialBinding(owner, 'access'))),
          ],
        );
      }
      for (const row of states) {
        const binding: SealBinding = {
          column: 'code_verifier',
          connectorId: row.connector_id,
          stateHash: row.state_hash,
        };
        await queryRunner.query(`UPDATE oauth_state SET code_verifier = $2 WHERE state_hash = $1`, [
          row.state_hash,
          json(reseal(row.code_verifier, binding)),
        ]);
      }
    }

    async down(): Promise<void> {
      // Nothing to undo: format 2 opens only in code that knows it, and sealing back to the connector id
      // alone would undo the protection. Roll back to a version before this one with a database backup.
    }
  };
}

/**
 * A format-1 value sealed again for its binding; a format-2 value as it is. One that does not open (changed
 * or tampered with already) is left as it is: it does not open in format 2 either, so its connector is
 * refused with an alert when next used, never sent. An unknown key fails the migration (name the key).
 */
function resealWith(box: SecretBox) {
  const logger = new Logger(NAME);
  return (sealed: SealedSecret | null, binding: SealBinding): SealedSecret | null => {
    if (sealed?.v !== 1) return sealed;
    try {
      return box.seal(box.openLegacy(sealed, binding), binding);
    } catch (error) {
      if (!(error instanceof SealedSecretMismatchError)) throw error;
      logger.warn(`${error.message}; left as it is, it will not open`);
      return sealed;
    }
  };
}

function json(value: SealedSecret | null): string | null {
  return value && JSON.stringify(value);
}
