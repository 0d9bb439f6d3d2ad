import { type SealedBytes, SealingKeys, SealOpenError } from '@connector/service-kit';
import { associatedDataOf, type SealBinding } from './seal-binding';

/**
 * A secret as it is stored: AES-256-GCM, with the id of the key that sealed it so keys can rotate. `v` is the
 * format of its associated data: 2, its binding (seal-binding.ts); 1, the connector id alone (before
 * migration 1764000001000, which re-sealed every one: format 1 is never opened any more).
 */
export interface SealedSecret extends SealedBytes {
  v: 1 | 2;
}

class SecretBoxError extends Error {
  override name = 'SecretBoxError';
}

/**
 * A sealed value that does not open for what it is bound to: the row was changed outside a save, the value
 * was copied from another column or row, tampered with, or is in the old format. The message names the
 * connector and the column, never the secret.
 */
export class SealedSecretMismatchError extends SecretBoxError {
  override name = 'SealedSecretMismatchError';
  readonly connectorId: string;
  readonly column: SealBinding['column'];

  constructor(binding: SealBinding, why: string) {
    super(`the sealed ${binding.column} of connector ${binding.connectorId} does not open: ${why}`);
    this.connectorId = binding.connectorId;
    this.column = binding.column;
  }
}

/**
 * Seals and opens secrets with AES-256-GCM. Keys come from the environment as `ENCRYPTION_KEYS`
 * ("<keyId>:<base64 of 32 bytes>[,…]", SealingKeys); the first seals, all of them open, so a new key can be
 * put first and old secrets re-sealed over time. Each secret is bound to what it belongs to (its SealBinding, as
 * associated data): one copied onto another row or column, or left on a row whose address changed, does not
 * open.
 */
export class SecretBox {
  constructor(private readonly keys: SealingKeys) {}

  get activeKeyId(): string {
    return this.keys.activeKeyId;
  }

  /** Parses `ENCRYPTION_KEYS`; the message names the problem, never the key. */
  static fromEnv(value: string): SecretBox {
    return new SecretBox(SealingKeys.fromEnv(value));
  }

  seal(plaintext: string, binding: SealBinding): SealedSecret {
    return { v: 2, ...this.keys.seal(plaintext, associatedDataOf(binding)) };
  }

  /** The secret, when it was sealed for exactly `binding`; else SealedSecretMismatchError. */
  open(sealed: SealedSecret, binding: SealBinding): string {
    // A value in the old format would open for any address: refused, whoever wrote it.
    if (sealed.v !== 2) throw new SealedSecretMismatchError(binding, `it is in format ${sealed.v}, not 2`);
    return this.decrypt(sealed, associatedDataOf(binding), binding);
  }

  /**
   * A value of format 1 (bound to the connector id, or a PKCE verifier's state hash, alone). Only migration
   * 1764000001000 opens these, to seal them again for their binding.
   */
  openLegacy(sealed: SealedSecret, binding: SealBinding): string {
    if (sealed.v !== 1) throw new SealedSecretMismatchError(binding, `it is in format ${sealed.v}, not 1`);
    const context = binding.column === 'code_verifier' ? binding.stateHash : binding.connectorId;
    return this.decrypt(sealed, Buffer.from(context), binding);
  }

  /** The same secret under the newest key (unchanged when it already is). */
  reseal(sealed: SealedSecret, binding: SealBinding): SealedSecret {
    return this.isStale(sealed) ? this.seal(this.open(sealed, binding), binding) : sealed;
  }

  /** True when the secret was sealed with an older key and should be sealed again. */
  isStale(sealed: SealedSecret): boolean {
    return sealed.kid !== this.activeKeyId;
  }

  private decrypt(sealed: SealedSecret, associatedData: Buffer, binding: SealBinding): string {
    // An unknown key is the configuration's problem (SealingKeysError); anything else wrong is the value's.
    try {
      return this.keys.open(sealed, associatedData);
    } catch (error) {
      if (!(error instanceof SealOpenError)) throw error;
      const why =
        error.kind === 'mismatch'
          ? `${error.message} for its row as stored (changed, copied or tampered with)`
          : error.message;
      throw new SealedSecretMismatchError(binding, why);
    }
  }
}
