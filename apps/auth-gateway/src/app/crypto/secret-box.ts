import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { ValidatorConstraint, type ValidatorConstraintInterface } from 'class-validator';

/** A secret as it is stored: AES-256-GCM, with the id of the key that sealed it so keys can rotate. */
export interface SealedSecret {
  v: 1;
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
 * Seals and opens secrets with AES-256-GCM. Keys come from the environment as `ENCRYPTION_KEYS`
 * ("<keyId>:<base64 of 32 bytes>[,…]"); the first seals, all of them open, so a new key can be put first
 * and old secrets re-sealed over time. `context` (e.g. the connector id) is bound as associated data: a
 * sealed secret copied onto another row does not open.
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

  seal(plaintext: string, context: string): SealedSecret {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key(this.activeKeyId), iv);
    cipher.setAAD(Buffer.from(context));
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return {
      v: 1,
      kid: this.activeKeyId,
      iv: iv.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      data: data.toString('base64'),
    };
  }

  open(sealed: SealedSecret, context: string): string {
    const tag = Buffer.from(sealed.tag, 'base64');
    // GCM accepts tags down to 4 bytes: a shortened tag would make forgeries far cheaper. Only full 16.
    if (tag.length !== TAG_BYTES) {
      throw new SecretBoxError(
        `a secret sealed with key "${sealed.kid}" has a ${tag.length}-byte tag, not ${TAG_BYTES}`,
      );
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key(sealed.kid), Buffer.from(sealed.iv, 'base64'), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      throw new SecretBoxError(
        `a secret sealed with key "${sealed.kid}" does not open (wrong key or context)`,
      );
    }
  }

  /** The same secret under the newest key (unchanged when it already is). */
  reseal(sealed: SealedSecret, context: string): SealedSecret {
    return this.isStale(sealed) ? this.seal(this.open(sealed, context), context) : sealed;
  }

  /** True when the secret was sealed with an older key and should be sealed again. */
  isStale(sealed: SealedSecret): boolean {
    return sealed.kid !== this.activeKeyId;
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
