import { Injectable, Logger } from '@nestjs/common';
import { credentialBinding } from '../crypto/seal-binding';
import { SecretBox } from '../crypto/secret-box';
import {
  CredentialsReplacedError,
  CredentialsRepository,
  type LeasedCredential,
} from './credentials.repository';

/** A re-seal is two short statements: its lease need not last long. */
const RESEAL_LEASE_MS = 10_000;

export interface ResealReport {
  /** Rows looked at. */
  credentials: number;
  /** Rows that had something sealed under an older key, now under the newest. */
  resealed: number;
  /** Key ids still used by any stored secret after the run (only the newest when all went well). */
  keyIdsInUse: string[];
}

/**
 * `npm run reseal`: every stored secret and access sealed again under the newest key (the first of
 * ENCRYPTION_KEYS), so an older key can be removed. Each row is re-sealed under its renewal lease, so a
 * renewal running at the same time is never overwritten with a stale copy.
 */
@Injectable()
export class ResealService {
  private readonly logger = new Logger(ResealService.name);

  constructor(
    private readonly repository: CredentialsRepository,
    private readonly secrets: SecretBox,
  ) {}

  async resealAll(pageSize = 100): Promise<ResealReport> {
    let after = '';
    let credentials = 0;
    let resealed = 0;
    const keyIdsInUse = new Set<string>();
    for (;;) {
      const page = await this.repository.sealedPage(after, pageSize);
      if (page.length === 0) break;
      for (const { connectorId } of page) {
        credentials += 1;
        const reseal = async (locked: LeasedCredential) => {
          const row = await locked.find();
          if (!row) return [];
          const secret = row.secret && this.secrets.reseal(row.secret, credentialBinding(row, 'secret'));
          const access = row.access && this.secrets.reseal(row.access, credentialBinding(row, 'access'));
          if (secret !== row.secret || access !== row.access) {
            await locked.update({ secret, access });
            resealed += 1;
          }
          return [secret?.kid, access?.kid].filter((kid): kid is string => kid !== undefined);
        };
        const resealOne = async (): Promise<string[]> => {
          for (;;) {
            const outcome = await this.repository.withRenewalLease(connectorId, reseal, RESEAL_LEASE_MS);
            if (outcome.leased) return outcome.value;
            // A renewal holds the lease: it ends (or runs out) soon.
            await new Promise((resolve) => setTimeout(resolve, 200));
          }
        };
        // Credentials saved anew meanwhile are not overwritten (LeasedCredential.update): look at them again.
        const kids = await resealOne().catch((error: unknown) => {
          if (error instanceof CredentialsReplacedError) return resealOne();
          throw error;
        });
        kids.forEach((kid) => keyIdsInUse.add(kid));
      }
      after = page[page.length - 1]?.connectorId ?? after;
    }
    const report = { credentials, resealed, keyIdsInUse: [...keyIdsInUse].sort() };
    this.logger.log(
      `re-sealed ${resealed} of ${credentials} credentials under key "${this.secrets.activeKeyId}"; ` +
        `key ids in use: ${report.keyIdsInUse.join(', ') || 'none'}`,
    );
    return report;
  }
}
