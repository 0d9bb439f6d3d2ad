import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import {
  Matches,
  Validate,
  type ValidationArguments,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { RequiredInProduction } from './service-config';

/** A value sealed with AES-256-GCM, with the id of the key that sealed it so keys can rotate. */
export interface SealedBytes {
  kid: string;
  iv: string;
  tag: string;
  data: string;
}

const TAG_BYTES = 16;

/** A keys variable that cannot be used, or a key id that is not configured: the configuration's problem. */
export class SealingKeysError extends Error {
  override name = 'SealingKeysError';
}

/** A sealed value the keys do not open for the associated data given: the value's problem, never the keys'. */
export class SealOpenError extends Error {
  override name = 'SealOpenError';
  constructor(
    /** `short-tag`: a shortened GCM tag, refused whatever it would authenticate. */
    readonly kind: 'short-tag' | 'mismatch',
    message: string,
  ) {
    super(message);
  }
}

/**
 * AES-256-GCM keys from a variable "<keyId>:<base64 of 32 bytes>[,…]" (`ENCRYPTION_KEYS`,
 * `REQUEST_SEAL_KEYS`): the first seals, all of them open, so a new key can be put first and old values
 * sealed again over time. What a value is bound to is the caller's associated data.
 */
export class SealingKeys {
  private readonly keys: Map<string, Buffer>;
  readonly activeKeyId: string;

  constructor(keys: Array<{ id: string; key: Buffer }>) {
    if (keys.length === 0) throw new SealingKeysError('at least one encryption key is needed');
    const seen = new Set<string>();
    for (const { id, key } of keys) {
      if (key.length !== 32)
        throw new SealingKeysError(`encryption key "${id}" must be 32 bytes, it is ${key.length}`);
      // Two keys under one id: which one opens a value would depend on the order, and one would be lost.
      if (seen.has(id)) throw new SealingKeysError(`encryption key id "${id}" appears more than once`);
      seen.add(id);
    }
    this.keys = new Map(keys.map(({ id, key }) => [id, key]));
    this.activeKeyId = keys[0].id;
  }

  /** Parses a keys variable; the message names the problem, never the key. */
  static fromEnv(value: string): SealingKeys {
    const keys = value
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean)
      .map((entry) => {
        const separator = entry.indexOf(':');
        if (separator <= 0) throw new SealingKeysError('entries must look like <keyId>:<base64 key>');
        return { id: entry.slice(0, separator), key: Buffer.from(entry.slice(separator + 1), 'base64') };
      });
    return new SealingKeys(keys);
  }

  seal(plaintext: string, associatedData: Buffer): SealedBytes {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key(this.activeKeyId), iv);
    cipher.setAAD(associatedData);
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return {
      kid: this.activeKeyId,
      iv: iv.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      data: data.toString('base64'),
    };
  }

  /** The plaintext; an unknown key id throws SealingKeysError, a value that does not open SealOpenError. */
  open(sealed: SealedBytes, associatedData: Buffer): string {
    const key = this.key(sealed.kid);
    const tag = Buffer.from(String(sealed.tag), 'base64');
    // GCM accepts tags down to 4 bytes: a shortened tag would make forgeries far cheaper. Only full 16.
    if (tag.length !== TAG_BYTES) {
      throw new SealOpenError('short-tag', `its tag has ${tag.length} bytes, not ${TAG_BYTES}`);
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
      throw new SealOpenError('mismatch', `key "${sealed.kid}" does not open it`);
    }
  }

  private key(id: string): Buffer {
    const key = this.keys.get(id);
    if (!key) throw new SealingKeysError(`no encryption key "${id}" is configured`);
    return key;
  }
}

/** A keys variable must build SealingKeys; the message names the variable, never a key. */
@ValidatorConstraint({ name: 'sealingKeys' })
class SealingKeysConstraint implements ValidatorConstraintInterface {
  private problem = '';
  validate(value: unknown): boolean {
    try {
      SealingKeys.fromEnv(typeof value === 'string' ? value : '');
      return true;
    } catch (error) {
      this.problem = error instanceof SealingKeysError ? error.message : 'is invalid';
      return false;
    }
  }
  defaultMessage(args: ValidationArguments): string {
    return `${args.property}: ${this.problem}`;
  }
}

/**
 * A config variable of SealingKeys, "<keyId>:<base64 of 32 bytes>[,…]": required in production, checked at
 * boot (format, 32 bytes each, unique ids), the message naming the variable and never a key.
 */
export function SealKeys(): PropertyDecorator {
  return (target, property) => {
    RequiredInProduction()(target, property);
    Matches(/^[\w.-]+:[A-Za-z0-9+/=]{40,}(,[\w.-]+:[A-Za-z0-9+/=]{40,})*$/, {
      message: `${String(property)} must be "<keyId>:<base64 of 32 bytes>[,…]"`,
    })(target, property);
    Validate(SealingKeysConstraint)(target, property);
  };
}
