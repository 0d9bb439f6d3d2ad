import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { ValidatorConstraint, type ValidatorConstraintInterface } from 'class-validator';
import { associatedDataOf, type SealBinding } from './seal-binding';

/**
 * A secret as it is stored: AES-256-GCM, with the id of the key that sealed it so keys can rotate. `v` is the
 * format of its associated data: 2, its binding (seal-binding.ts); 1, the connector id alone (before
 * migration 1764000001000, which re-sealed every one: format 1 is never opened any more).
 */
export interface SealedSecret {
  v: 1 | 2;
  kid: string;
  iv: string;
  tag: string;
  data: string;
}

const TAG_BYTES = 16;

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
 * ("<keyId>:<base64 of 32 bytes>[,…]"); the first seals, all of them open, so a new key can be put first
 * and old secrets re-sealed over time. Each secret is bound to what it belongs to (its SealBinding, as
 * associated data): one copied onto another row or column, or left on a row whose address changed, does not
 * open.
 */
export class SecretBox {
  private readonly keys: Map<string, Buffer>;
  readonly activeKeyId: string;

  constructor(keys: Array<{ id: string; key: Buffer }>) {
    if (keys.length === 0) throw new SecretBoxError('at least one encryption key is needed');
    const seen = new Set<string>();
    for (const { id, key } of keys) {
      if (key.length !== 32)
        throw new SecretBoxError(`encryption key "${id}" must be 32 bytes, it is ${key.length}`);
      // Two keys under one id: which one opens a secret would depend on the order, and one would be lost.
      if (seen.has(id)) throw new SecretBoxError(`encryption key id "${id}" appears more than once`);
      seen.add(id);
    }
    this.keys = new Map(keys.map(({ id, key }) => [id, key]));
    this.activeKeyId = keys[0].id;
  }

  /** Parses `ENCRYPTION_KEYS`; the message names the problem, never the key. */
  static fromEnv(value: string): SecretBox {
    const keys = value
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean)
      .map((entry) => {
        const separator = entry.indexOf(':');
        if (separator <= 0)
          throw new SecretBoxError('ENCRYPTION_KEYS entries must look like <keyId>:<base64 key>');
        return { id: entry.slice(0, separator), key: Buffer.from(entry.slice(separator + 1), 'base64') };
      });
    return new SecretBox(keys);
  }

  seal(plaintext: string, binding: SealBinding): SealedSecret {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key(this.activeKeyId), iv);
    cipher.setAAD(associatedDataOf(binding));
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return {
      v: 2,
      kid: this.activeKeyId,
      iv: iv.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      data: data.toString('base64'),
    };
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
    // An unknown key is the configuration's problem (said as such); anything else wrong is the value's.
    const key = this.key(sealed.kid);
    const tag = Buffer.from(String(sealed.tag), 'base64');
    // GCM accepts tags down to 4 bytes: a shortened tag would make forgeries far cheaper. Only full 16.
    if (tag.length !== TAG_BYTES) {
      throw new SealedSecretMismatchError(binding, `its tag has ${tag.length} bytes, not ${TAG_BYTES}`);
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(String(sealed.iv), 'base64'), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(associatedData);
      decipher.setAuthTag(tag);
      const data = Buffer.from(String(sealed.data), 'base64');
      return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
    } catch {
      throw new SealedSecretMismatchError(
        binding,
        `key "${sealed.kid}" does not open it for its row as stored (changed, copied or tampered with)`,
      );
    }
  }

  private key(id: string): Buffer {
    const key = this.keys.get(id);
    if (!key) throw new SecretBoxError(`no encryption key "${id}" is configured`);
    return key;
  }
}

/** Config validation of `ENCRYPTION_KEYS`: they must build a SecretBox; the message never holds a key. */
@ValidatorConstraint({ name: 'encryptionKeys' })
export class EncryptionKeysConstraint implements ValidatorConstraintInterface {
  private problem = '';
  validate(value: unknown): boolean {
    try {
      SecretBox.fromEnv(typeof value === 'string' ? value : '');
      return true;
    } catch (error) {
      this.problem = error instanceof SecretBoxError ? error.message : 'is invalid';
      return false;
    }
  }
  defaultMessage(): string {
    return `ENCRYPTION_KEYS: ${this.problem}`;
  }
}
