import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, Repository } from 'typeorm';
import {
  type AppliedOptions,
  type ClaimedOrFound,
  type Fenced,
  type FencedWrite,
  type LinkClaim,
  type OrderedLink,
  OrderedLinkTable,
} from '@connector/exactly-once';
import type { SentAnswers } from './application-answers';
import { ApplicationLinkEntity } from './application-link.entity';
import { APPLICATION_LINKS, type ApplicationClaim, type ApplicationKey } from './application-link.sql';

export type { ApplicationKey } from './application-link.sql';

export interface ApplicationLink extends OrderedLink {
  answers: SentAnswers;
}

/** What the first statement under a candidate's lock found for one application (see claimOrFind). */
export type ApplicationClaimOrFind =
  | { erased: true }
  | { erased: false; candidateExternalId: null }
  | (Exclude<ClaimedOrFound<ApplicationLink>, { erased: true }> & { candidateExternalId: string });

/**
 * Every read and write of `application_link`, its link flow generated from APPLICATION_LINKS; the key is
 * unique, so one ATS application per pair. `fence`: the caller's candidate lock token (see LinkTable).
 */
@Injectable()
export class ApplicationLinkRepository {
  private readonly rows: Repository<ApplicationLinkEntity>;
  private readonly table: OrderedLinkTable<
    ApplicationLinkEntity,
    ApplicationKey,
    ApplicationClaim,
    SentAnswers
  >;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.rows = dataSource.getRepository(ApplicationLinkEntity);
    this.table = new OrderedLinkTable(dataSource, ApplicationLinkEntity, APPLICATION_LINKS);
  }

  /**
   * The candidate's lock, the candidate's ATS id, and the application's link read under the lock's token or,
   * when there is none, its create claimed, in one statement (CandidateLocks.runBy). Nothing is claimed or
   * read while the candidate is erased or not in the ATS.
   */
  claimOrFind(
    key: ApplicationKey,
    { accountId, applicationId, eventId }: { accountId: string; applicationId: string; eventId: string },
  ): LinkClaim<ApplicationClaimOrFind> {
    return this.table
      .claimOrFindAfter(key, { accountId, applicationId, createdEventId: eventId })
      .map((found): ApplicationClaimOrFind => {
        if (found.erased) return found;
        // Nothing was claimed: the application waits for its candidate.
        if (found.prerequisite === null) return { erased: false, candidateExternalId: null };
        const { prerequisite: candidateExternalId, ...claimedOrFound } = found;
        return { ...claimedOrFound, candidateExternalId };
      });
  }

  /** The link as it is, read without the lock. */
  async find(key: ApplicationKey): Promise<ApplicationLink | undefined> {
    return this.table.find(key);
  }

  /** The claim taken again, committed before the ATS create: the next try looks the application up first. */
  async markPending(
    key: ApplicationKey,
    { applicationId, eventId, fence }: { applicationId: string; eventId: string } & Fenced,
  ): Promise<void> {
    await this.table.claim(key, { applicationId, createdEventId: eventId, fence });
  }

  /** The ATS application exists; `answers`: what it holds as sent. */
  async link(
    key: ApplicationKey,
    { answers, ...write }: { externalId: string; answers: SentAnswers } & FencedWrite,
  ): Promise<void> {
    await this.table.link(key, { ...write, sent: answers });
  }

  /**
   * The event is fully applied: its answers sent. `created`: the application this event just created, when
   * nothing was sent after the create: its link is written with the event, one statement. `release`: the
   * lock's release, to go with this last write (Lease.release).
   */
  async applied(
    key: ApplicationKey,
    { answers, ...options }: Omit<AppliedOptions<SentAnswers>, 'sent'> & { answers: SentAnswers },
  ): Promise<void> {
    await this.table.applied(key, { ...options, sent: answers });
  }

  /**
   * Erasure: the candidate's applications in a connector keep their ids and lose the answers' hashes and the
   * content hash. Under the candidate lock, whose token it takes. The rows it holds.
   */
  async erase(connectorId: string, candidateId: string, fence: number): Promise<number> {
    const result = await this.rows.update(
      { connectorId, candidateId },
      { answers: {}, contentHash: null, fence: String(fence) },
    );
    return result.affected ?? 0;
  }
}
