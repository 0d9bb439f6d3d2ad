import { Injectable } from '@nestjs/common';
import { ConnectorDirectory } from '@connector/ats-client-factory';
import { AtsRegistry } from '@connector/ats-core';
import type { VacancyPreviewRequestedDto } from '@connector/contracts';
import { type JobMapping, validateJobMapping } from '@connector/job-mapping';
import { syncOptionsOf } from '../runs/sync-options';
import { VacancySources } from '../sources/vacancy-sources';
import { buildVacancyUpsert, type VacancyUpsert } from '../vacancies/vacancy-content';

/** Pages read at most to find `limit` live vacancies. */
const MAX_PREVIEW_PAGES = 3;
const PREVIEW_MAX_WAIT_MS = 5_000;

/** An error whose `code` the requester sees (the transport copies it into the reply). */
export class PreviewError extends Error {
  constructor(
    readonly code: 'INVALID_MAPPING',
    message: string,
  ) {
    super(message);
    this.name = 'PreviewError';
  }
}

/** A mapping applied to a few live vacancies, as they would be published; nothing is published or stored. */
@Injectable()
export class VacancyPreviewService {
  constructor(
    private readonly directory: ConnectorDirectory,
    private readonly sources: VacancySources,
    private readonly registry: AtsRegistry,
  ) {}

  async preview(
    accountId: string,
    request: VacancyPreviewRequestedDto,
  ): Promise<{ vacancies: VacancyUpsert[] }> {
    const connector = await this.directory.get(request.connectorId, accountId);
    const errors = validateJobMapping(this.registry.get(connector.type).mapping, request.mapping);
    if (errors.length > 0) throw new PreviewError('INVALID_MAPPING', errors.join('; '));
    const mapping = request.mapping as unknown as JobMapping;
    const vacancies: VacancyUpsert[] = [];
    let pagesRead = 0;
    const source = this.sources.for(connector.type);
    const pages = source.listLive(
      connector,
      {
        after: 0,
        openStatuses: syncOptionsOf(connector.options, source.defaultOpenStatuses).openStatuses,
        now: new Date(),
        pageSize: Math.min(100, Math.max(10, request.limit * 2)),
      },
      { priority: 'sync', maxWaitMs: PREVIEW_MAX_WAIT_MS },
    );
    for await (const page of pages) {
      for (const vacancy of page.vacancies) {
        const upsert = buildVacancyUpsert(connector.id, connector.type, mapping, vacancy);
        if (upsert && vacancies.length < request.limit) vacancies.push(upsert);
      }
      pagesRead += 1;
      if (vacancies.length >= request.limit || pagesRead >= MAX_PREVIEW_PAGES) break;
    }
    return { vacancies };
  }
}
