import { Injectable } from '@nestjs/common';
import type { EventEnvelope } from '@connector/contracts';
import type { AdminIdentity } from '../auth/api-keys';
import { RegistryException } from '../common/registry.exception';
import { ConnectorRepository } from '../repositories/connector.repository';
import { ActivityRepository } from './activity.repository';
import type { ActivityView } from './activity.view';

/** The days the admin page draws. */
export const ACTIVITY_DAYS = 14;

/** What each connector did per day, for the admin page's activity view. */
@Injectable()
export class ActivityService {
  constructor(
    private readonly connectors: ConnectorRepository,
    private readonly activity: ActivityRepository,
  ) {}

  async get(admin: AdminIdentity, id: string): Promise<ActivityView> {
    const connector = await this.connectors.findOwned(admin.accountId, id);
    if (!connector) throw RegistryException.notFound();
    return {
      connectorId: connector.id,
      days: await this.activity.days(connector.accountId, connector.id, ACTIVITY_DAYS),
    };
  }

  /** A record reached the ATS (a `*.synced` event): counted on the UTC day it happened. */
  async recordWritten(event: EventEnvelope<string, { connectorId: string }>): Promise<void> {
    const day = new Date(event.occurredAt).toISOString().slice(0, 10);
    await this.activity.recordWritten(event.id, event.data.connectorId, day);
  }
}
