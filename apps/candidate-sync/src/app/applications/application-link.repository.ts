import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { AppliedMark } from '@connector/exactly-once';
import type { SentAnswers } from './application-answers';

export interface ApplicationLink extends AppliedMark {
  externalId: string | null;
  state: 'pending' | 'linked';
  createdEventId: string | null;
  answers: SentAnswers;
}

interface Row {
  external_id: string | null;
  state: 'pending' | 'linked';
  created_event_id: string | null;
  last_event_id: string | null;
  last_occurred_at: Date | null;
  content_hash: string | null;
  answers: SentAnswers;
}

export interface ApplicationKey {
  connectorId: string;
  candidateId: string;
  vacancyExternalId: string;
}

/** Every read and write of `application_link`; the key is unique, so one ATS application per pair. */
@Injectable()
export class ApplicationLinkRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async find(key: ApplicationKey): Promise<ApplicationLink | undefined> {
    const rows = (await this.dataSource.query(
      `SELECT * FROM "application_link"
       WHERE "connector_id" = $1 AND "candidate_id" = $2 AND "vacancy_external_id" = $3`,
      [key.connectorId, key.candidateId, key.vacancyExternalId],
    )) as Row[];
    const row = rows[0];
    return (
      row && {
        externalId: row.external_id,
        state: row.state,
        createdEventId: row.created_event_id,
        lastEventId: row.last_event_id,
        lastOccurredAt: row.last_occurred_at,
        contentHash: row.content_hash,
        answers: row.answers,
      }
    );
  }

  /** The claim, committed before the ATS create: the next try looks the application up first. */
  async markPending(key: ApplicationKey, applicationId: string, eventId: string): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO "application_link"
         ("connector_id", "candidate_id", "vacancy_external_id", "application_id", "state", "created_event_id")
       VALUES ($1, $2, $3, $4, 'pending', $5)
       ON CONFLICT ("connector_id", "candidate_id", "vacancy_external_id") DO UPDATE
         SET "state" = 'pending', "created_event_id" = $5, "updated_at" = now()
       WHERE "application_link"."external_id" IS NULL`,
      [key.connectorId, key.candidateId, key.vacancyExternalId, applicationId, eventId],
    );
  }

  async link(key: ApplicationKey, externalId: string, answers: SentAnswers): Promise<void> {
    await this.dataSource.query(
      `UPDATE "application_link" SET "external_id" = $4, "state" = 'linked', "answers" = $5, "updated_at" = now()
       WHERE "connector_id" = $1 AND "candidate_id" = $2 AND "vacancy_external_id" = $3`,
      [key.connectorId, key.candidateId, key.vacancyExternalId, externalId, JSON.stringify(answers)],
    );
  }

  async applied(
    key: ApplicationKey,
    event: { id: string; occurredAt: string },
    contentHash: string,
    answers: SentAnswers,
  ): Promise<void> {
    await this.dataSource.query(
      `UPDATE "application_link" SET "last_event_id" = $4, "last_occurred_at" = $5, "content_hash" = $6,
         "answers" = $7, "updated_at" = now()
       WHERE "connector_id" = $1 AND "candidate_id" = $2 AND "vacancy_external_id" = $3`,
      [
        key.connectorId,
        key.candidateId,
        key.vacancyExternalId,
        event.id,
        event.occurredAt,
        contentHash,
        JSON.stringify(answers),
      ],
    );
  }
}
