import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { LinkTable, type OrderedLink, orderedLinkOf, type OrderedLinkRow } from '@connector/exactly-once';
import type { SentAnswers } from './application-answers';

export interface ApplicationLink extends OrderedLink {
  answers: SentAnswers;
}

interface Row extends OrderedLinkRow {
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
  private readonly table: LinkTable;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.table = new LinkTable(dataSource, 'application_link');
  }

  async find(key: ApplicationKey): Promise<ApplicationLink | undefined> {
    const row = await this.table.find<Row>(columnsOf(key));
    return row && { ...orderedLinkOf(row), answers: row.answers };
  }

  /** The claim, committed before the ATS create: the next try looks the application up first. */
  async markPending(key: ApplicationKey, applicationId: string, eventId: string): Promise<void> {
    await this.table.claim(columnsOf(key), { application_id: applicationId, created_event_id: eventId }, [
      'created_event_id',
    ]);
  }

  async link(key: ApplicationKey, externalId: string, answers: SentAnswers): Promise<void> {
    await this.table.link(columnsOf(key), externalId, { answers: JSON.stringify(answers) });
  }

  async applied(
    key: ApplicationKey,
    event: { id: string; occurredAt: string },
    contentHash: string,
    answers: SentAnswers,
  ): Promise<void> {
    await this.table.applied(columnsOf(key), event, contentHash, { answers: JSON.stringify(answers) });
  }
}

function columnsOf(key: ApplicationKey) {
  return {
    connector_id: key.connectorId,
    candidate_id: key.candidateId,
    vacancy_external_id: key.vacancyExternalId,
  };
}
