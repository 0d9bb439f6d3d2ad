import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { LinkTable, type OrderedLink, orderedLinkOf, type OrderedLinkRow } from '@connector/exactly-once';
import type { SentState } from './candidate-sink';

export interface CandidateLink extends OrderedLink {
  connectorId: string;
  candidateId: string;
  sent: SentState;
}

interface Row extends OrderedLinkRow {
  connector_id: string;
  candidate_id: string;
  sent: Partial<SentState>;
}

/** Every read and write of `candidate_link`. Callers hold the (connector, candidate) lock. */
@Injectable()
export class CandidateLinkRepository {
  private readonly table: LinkTable;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.table = new LinkTable(dataSource, 'candidate_link');
  }

  async find(connectorId: string, candidateId: string): Promise<CandidateLink | undefined> {
    const row = await this.table.find<Row>(keyOf(connectorId, candidateId));
    return row && toLink(row);
  }

  /** The intent, committed before the ATS create: after a crash or a timeout the next try looks first. */
  async markPending(
    connectorId: string,
    candidateId: string,
    accountId: string,
    eventId: string,
  ): Promise<void> {
    await this.table.claim(
      keyOf(connectorId, candidateId),
      { account_id: accountId, created_event_id: eventId },
      ['created_event_id'],
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
    await this.table.link(keyOf(connectorId, candidateId), externalId, {
      sent: JSON.stringify(sent),
      created_event_id: createdEventId,
    });
  }

  /** Progress while an update runs in several ATS calls (ATS-B's work history and education). */
  async saveSent(connectorId: string, candidateId: string, sent: SentState): Promise<void> {
    await this.table.update(keyOf(connectorId, candidateId), { sent: JSON.stringify(sent) });
  }

  /** The event is fully applied. */
  async applied(
    connectorId: string,
    candidateId: string,
    event: { id: string; occurredAt: string },
    contentHash: string,
    sent: SentState,
  ): Promise<void> {
    await this.table.applied(keyOf(connectorId, candidateId), event, contentHash, {
      sent: JSON.stringify(sent),
    });
  }
}

function keyOf(connectorId: string, candidateId: string) {
  return { connector_id: connectorId, candidate_id: candidateId };
}

function toLink(row: Row): CandidateLink {
  return {
    connectorId: row.connector_id,
    candidateId: row.candidate_id,
    ...orderedLinkOf(row),
    sent: { fields: row.sent.fields ?? {}, children: row.sent.children ?? {} },
  };
}
