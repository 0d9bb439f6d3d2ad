import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, Repository } from 'typeorm';
import { type OrderedLink, OrderedLinkTable } from '@connector/exactly-once';
import type { SentAnswers } from './application-answers';
import { ApplicationLinkEntity } from './application-link.entity';

export interface ApplicationLink extends OrderedLink {
  answers: SentAnswers;
}

export interface ApplicationKey {
  connectorId: string;
  candidateId: string;
  vacancyExternalId: string;
}

/**
 * Every read and write of `application_link`; the key is unique, so one ATS application per pair. `fence`:
 * the caller's candidate lock token (see LinkTable).
 */
@Injectable()
export class ApplicationLinkRepository {
  private readonly rows: Repository<ApplicationLinkEntity>;
  private readonly table: OrderedLinkTable<ApplicationLinkEntity>;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.rows = dataSource.getRepository(ApplicationLinkEntity);
    this.table = new OrderedLinkTable(this.rows);
  }

  async find(key: ApplicationKey, fence?: number): Promise<ApplicationLink | undefined> {
    return this.table.find(keyOf(key), fence);
  }

  /** The claim, committed before the ATS create: the next try looks the application up first. */
  async markPending(
    key: ApplicationKey,
    applicationId: string,
    eventId: string,
    fence?: number,
  ): Promise<void> {
    await this.table.claim(keyOf(key), { applicationId, createdEventId: eventId }, ['createdEventId'], fence);
  }

  async link(key: ApplicationKey, externalId: string, answers: SentAnswers, fence?: number): Promise<void> {
    await this.table.link(keyOf(key), externalId, { answers }, fence);
  }

  async applied(
    key: ApplicationKey,
    event: { id: string; occurredAt: string },
    contentHash: string,
    answers: SentAnswers,
    fence?: number,
  ): Promise<void> {
    await this.table.applied(keyOf(key), event, contentHash, { answers }, fence);
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

/** Only the key's columns, whatever else the caller's object carries. */
function keyOf({ connectorId, candidateId, vacancyExternalId }: ApplicationKey): ApplicationKey {
  return { connectorId, candidateId, vacancyExternalId };
}
