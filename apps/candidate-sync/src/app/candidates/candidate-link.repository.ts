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
import { CANDIDATE_LINKS, type CandidateClaim, type CandidateKey } from './candidate-link.sql';
import { CandidateLinkEntity } from './candidate-link.entity';
import type { SentState } from '@connector/ats-core';

export type { CandidateKey } from './candidate-link.sql';

export interface CandidateLink extends OrderedLink {
  connectorId: string;
  candidateId: string;
  sent: SentState;
}

/** What the first statement under a candidate's lock found (see claimOrFind). */
export type ClaimOrFind = ClaimedOrFound<CandidateLink>;

/**
 * Every read and write of `candidate_link`, its link flow generated from CANDIDATE_LINKS. Writes take the
 * caller's (connector, candidate) lock token as `fence`, so a holder whose lease has passed on is refused.
 */
@Injectable()
export class CandidateLinkRepository {
  private readonly rows: Repository<CandidateLinkEntity>;
  private readonly table: OrderedLinkTable<CandidateLinkEntity, CandidateKey, CandidateClaim, SentState>;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.rows = dataSource.getRepository(CandidateLinkEntity);
    this.table = new OrderedLinkTable(dataSource, CandidateLinkEntity, CANDIDATE_LINKS);
  }

  /** The link as it is, read without the lock. */
  async find(key: CandidateKey): Promise<CandidateLink | undefined> {
    const row = await this.table.find(key);
    return row && withSent(row);
  }

  /**
   * The candidate's lock, and its link read under the lock's token or, when there is none, its create
   * claimed for this event, in one statement (CandidateLocks.runBy). Nothing is written for an erased
   * candidate; a link a later holder fenced fails the work with LeaseLostError.
   */
  claimOrFind(
    key: CandidateKey,
    { accountId, eventId }: { accountId: string; eventId: string },
  ): LinkClaim<ClaimOrFind> {
    return this.table
      .claimOrFind(key, { accountId, createdEventId: eventId })
      .map((found) => (found.erased || found.claimed ? found : { ...found, link: withSent(found.link) }));
  }

  /** The claim taken again, committed before the ATS create: after a crash or a timeout the next try looks first. */
  async markPending(
    key: CandidateKey,
    { accountId, eventId, fence }: { accountId: string; eventId: string } & Fenced,
  ): Promise<void> {
    await this.table.claim(key, { accountId, createdEventId: eventId, fence });
  }

  /** Frees a claim whose create surely did not happen (the ATS refused it); a linked row stays. */
  async release(key: CandidateKey, options: Fenced): Promise<void> {
    await this.table.release(key, options);
  }

  /** The ATS record exists (created by this event, or found by looking it up), and what it holds as sent. */
  async link(
    key: CandidateKey,
    options: { externalId: string; sent: SentState } & FencedWrite,
  ): Promise<void> {
    await this.table.link(key, options);
  }

  /**
   * Progress of an event being applied (what the ATS holds now). With `occurredAt`, the event's time is kept
   * as the record's last too: part of it is in the ATS, so an older event is stale from now on, even if this
   * one fails before it is fully applied; this one still applies in full when it comes again (its id and
   * content are not recorded until `applied`).
   */
  async saveSent(
    key: CandidateKey,
    options: { sent: SentState; occurredAt?: string } & Fenced,
  ): Promise<void> {
    await this.table.progress(key, options);
  }

  /**
   * The event is fully applied. `created`: the record this event just created, when nothing else was sent
   * after the create: its link is written with the event, one statement. `release`: the lock's release, to
   * go with this last write (Lease.release).
   */
  async applied(key: CandidateKey, options: AppliedOptions<SentState>): Promise<void> {
    await this.table.applied(key, options);
  }

  /** The connectors where the candidate has a link (a connector deleted since included). */
  async connectorsOf(accountId: string, candidateId: string): Promise<string[]> {
    const rows = await this.rows.find({ select: { connectorId: true }, where: { accountId, candidateId } });
    return rows.map((row) => row.connectorId);
  }

  /**
   * Erasure: the link keeps its ids (which ATS record was this candidate) and loses what was sent (field
   * hashes, child keys, content hash). Under the candidate lock, whose token it takes. The rows it holds.
   */
  async erase(connectorId: string, candidateId: string, fence: number): Promise<number> {
    const result = await this.rows.update(
      { connectorId, candidateId },
      { sent: {}, contentHash: null, fence: String(fence) },
    );
    return result.affected ?? 0;
  }
}

function withSent(row: CandidateLinkEntity): CandidateLink {
  return { ...row, sent: { fields: row.sent.fields ?? {}, children: row.sent.children ?? {} } };
}
