import { Inject, Injectable } from '@nestjs/common';
import { createEvent, RoutingKey, type VacancyEventFeedStatus } from '@connector/contracts';
import { RpcClient } from '@connector/messaging';
import type { JobMapping } from '@connector/job-mapping';
import { ConnectorRegistryConfig } from '../connector-registry.config';

/**
 * Requests to vacancy-sync: a mapping applied to a few live vacancies (nothing published), and how a connector
 * hears of its ATS's changes (its event feed).
 */
@Injectable()
export class VacancySyncClient {
  private readonly timeoutMs: number;

  constructor(
    private readonly rpc: RpcClient,
    @Inject(ConnectorRegistryConfig) config: Pick<ConnectorRegistryConfig, 'VACANCY_SYNC_TIMEOUT_MS'>,
  ) {
    this.timeoutMs = config.VACANCY_SYNC_TIMEOUT_MS;
  }

  preview(accountId: string, connectorId: string, mapping: JobMapping, limit: number): Promise<unknown> {
    return this.rpc.request(
      createEvent(RoutingKey.VacancyPreviewRequested, accountId, { connectorId, mapping, limit }),
      this.timeoutMs,
    );
  }

  /** Whether the connector is on the ATS's events or polling; vacancy-sync knows (it reads the feed). */
  eventFeed(accountId: string, connectorId: string): Promise<VacancyEventFeedStatus> {
    return this.rpc.request<VacancyEventFeedStatus>(
      createEvent(RoutingKey.VacancyEventFeedRequested, accountId, { connectorId }),
      this.timeoutMs,
    );
  }
}
