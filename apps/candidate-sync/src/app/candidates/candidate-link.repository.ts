import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { AppliedMark } from '@connector/exactly-once';
import type { SentState } from './candidate-sink';

export interface CandidateLink extends AppliedMark {
  connectorId: string;
  candidateId: string;
  externalId: string | null;
  state: 'pending' | 'linked';
  createdEventId: string | null;
  sent: SentState;
}

interface Row {
  connector_id: string;
  candidate_id: string;
  external_id: string | null;
  state: 'pending' | 'linked';
  created_event_id: string | null;
  last_event_id: string | null;
  last_occurred_at: Date | null;
  content_hash: string | null;
  sent: Partial<SentState>;
}

/** Every read and write of `candidate_link`. Callers hold the (connector, candidate) lock. */
@Injectable()
export class CandidateLinkRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async find(connectorId: string, candidateId: string): Promise<CandidateLink | undefined> {
    const rows = (await this.dataSource.query(
      `SELECT * FROM "candidate_link" WHERE "connector_id" = $1 AND "candidate_id" = $2`,
      [connectorId, candidateId],
    )) as Row[];
    return rows[0] && toLink(rows[0]);
  }

  /** The intent, committed before the ATS create: after a crash or a timeout the next try looks first. */
  async markPending(
    connectorId: string,
    candidateId: string,
    accountId: string,
    eventId: string,
  ): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO "candidate_link" ("connector_id", "candidate_id", "account_id", "state", "created_event_id")
       VALUES ($1, $2, $3, 'pending', $4)
       ON CONFLICT ("connector_id", "candidate_id") DO UPDATE
         SET "state" = 'pending', "created_event_id" = $4, "updated_at" = now()
       WHERE "candidate_link"."external_id" IS NULL`,
      [connectorId, candidateId, accountId, eventId],
    );
  }

  /** The ATS record exists (created by this event, or found by looking it up). */
  async link(
    connectorId: string,
    candidateId: string,
    externalId: string,
    sent: SentState,
    createdEventId: string | null,
  ): Promise<void> {
    await this.dataSource.query(
      `UPDATE "candidate_link" SET "external_id" = $3, "state" = 'linked', "sent" = $4,
         "created_event_id" = $5, "updated_at" = now()
       WHERE "connector_id" = $1 AND "candidate_id" = $2`,
      [connectorId, candidateId, externalId, JSON.stringify(sent), createdEventId],
    );
  }

  /** Progress while an update runs in several ATS calls (ATS-B's work history and education). */
  async saveSent(connectorId: string, candidateId: string, sent: SentState): Promise<void> {
    await this.dataSource.query(
      `UPDATE "candidate_link" SET "sent" = $3, "updated_at" = now()
       WHERE "connector_id" = $1 AND "candidate_id" = $2`,
      [connectorId, candidateId, JSON.stringify(sent)],
    );
  }

  /** The event is fully applied. */
  async applied(
    connectorId: string,
    candidateId: string,
    event: { id: string; occurredAt: string },
    contentHash: string,
    sent: SentState,
  ): Promise<void> {
    await this.dataSource.query(
      `UPDATE "candidate_link" SET "last_event_id" = $3, "last_occurred_at" = $4, "content_hash" = $5,
         "sent" = $6, "updated_at" = now()
       WHERE "connector_id" = $1 AND "candidate_id" = $2`,
      [connectorId, candidateId, event.id, event.occurredAt, contentHash, JSON.stringify(sent)],
    );
  }
}

function toLink(row: Row): CandidateLink {
  return {
    connectorId: row.connector_id,
    candidateId: row.candidate_id,
    externalId: row.external_id,
    state: row.state,
    createdEventId: row.created_event_id,
    lastEventId: row.last_event_id,
    lastOccurredAt: row.last_occurred_at,
    contentHash: row.content_hash,
    sent: { fields: row.sent.fields ?? {}, children: row.sent.children ?? {} },
  };
}
