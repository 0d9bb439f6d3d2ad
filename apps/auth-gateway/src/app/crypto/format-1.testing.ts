import { createCipheriv, randomBytes } from 'node:crypto';
import type { SealedSecret } from './secret-box';

/** For tests: a value as the gateway sealed it before migration 1764000001000 (the connector id alone). */
export function sealInFormat1(
  key: { id: string; key: Buffer },
  plaintext: string,
  context: string,
): SealedSecret {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key.key, iv).setAAD(Buffer.from(context));
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return {
    v: 1,
    kid: key.id,
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    data: data.toString('base64'),
  };
}
