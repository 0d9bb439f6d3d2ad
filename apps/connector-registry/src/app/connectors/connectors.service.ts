import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  type ConnectorSnapshot,
  type ConnectorStatus,
  createEvent,
  Exchange,
  type EventEnvelope,
  RoutingKey,
} from '@connector/contracts';
import { AtsRegistry } from '@connector/ats-core';
import { defaultJobMapping } from '@connector/ats-registry';
import { MessagePublisher } from '@connector/messaging';
import { OutboxRelay } from '@connector/persistence';
import type { AdminIdentity } from '../auth/api-keys';
import { BudgetService } from '../budget/budget.service';
import { AuthGatewayClient } from '../clients/auth-gateway.client';
import { isUnanswered } from '../clients/dependency-errors';
import { RegistryErrorCode, RegistryException } from '../common/registry.exception';
import { ConnectorRegistryConfig } from '../connector-registry.config';
import { definedOnly, validateAs } from '../common/validation';
import { ConnectorRepository } from '../repositories/connector.repository';
import { JobMappingRepository } from '../repositories/job-mapping.repository';
import { RunRepository } from '../repositories/run.repository';
import { ConnectorEntity } from './connector.entity';
import { applyReportedStatus, changeStatusByAdmin, type StatusState } from './connector-status';
import { type ConnectorView, snapshotVersion, toConnectorView, toSnapshot } from './connector.view';
import type { CreateConnectorDto, TestConnectionDto, UpdateConnectorDto } from './dto/connector-requests.dto';
import type { ConnectionTestResult, ConnectorKind } from '@connector/ats-core';
import { ConnectorKinds } from './kinds/connector-kinds';

/** Connector set-up, configuration and status: the admin API's connectors and the workers' lookups. */
@Injectable()
export class ConnectorsService {
  private readonly logger = new Logger(ConnectorsService.name);

  constructor(
    private readonly connectors: ConnectorRepository,
    private readonly mappings: JobMappingRepository,
    private readonly runs: RunRepository,
    private readonly kinds: ConnectorKinds,
    private readonly gateway: AuthGatewayClient,
    private readonly publisher: MessagePublisher,
    private readonly budget: BudgetService,
    private readonly outbox: OutboxRelay,
    @Inject(ConnectorRegistryConfig)
    private readonly config: Pick<ConnectorRegistryConfig, 'MAX_CONNECTORS_PER_ACCOUNT'>,
    private readonly registry: AtsRegistry,
  ) {}

  /** Nothing is saved. */
  test(admin: AdminIdentity, dto: TestConnectionDto): Promise<ConnectionTestResult> {
    const kind = this.kinds.of(dto.type);
    return kind.test(admin.accountId, dto.config, this.validOptions(kind, dto.options));
  }

  async create(admin: AdminIdentity, dto: CreateConnectorDto): Promise<ConnectorView> {
    const kind = this.kinds.of(dto.type);
    const id = randomUUID();
    const max = this.config.MAX_CONNECTORS_PER_ACCOUNT;
    // Before the gateway is asked (it would test and store credentials); counted again when inserting.
    if ((await this.connectors.countLive(admin.accountId)) >= max) throw connectorLimit(max);
    // A client-credentials kind has the gateway test and store them first; a refusal throws, nothing is saved.
    const options = this.validOptions(kind, dto.options);
    const initial = await kind.prepare(admin.accountId, id, dto.config, options);
    const now = new Date();
    const connector = Object.assign(new ConnectorEntity(), {
      id,
      accountId: admin.accountId,
      type: dto.type,
      name: dto.name,
      status: initial.status,
      statusBeforeDisable: null,
      statusChangedAt: now,
      options: { ...initial.options, ...options },
      config: initial.config,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
    });
    try {
      const saved = await this.connectors.insertWithMapping(
        connector,
        defaultJobMapping(dto.type, this.registry),
        admin.adminId,
        max,
      );
      // Another creation took the last place meanwhile.
      if (saved === 'limit') throw connectorLimit(max);
    } catch (error) {
      if (initial.credentialsStored) await this.eraseCredentials(admin.accountId, id);
      throw error;
    }
    this.logger.log(`connector ${id} (${dto.type}) created for ${admin.accountId} by ${admin.adminId}`);
    // Consumers (vacancy-sync's scheduler, the platform) learn of a connector that is usable from the start.
    if (connector.status === 'connected') await this.publishStatus(connector, 'connected', 'created');
    await this.announceChange(id);
    return toConnectorView(connector);
  }

  async list(admin: AdminIdentity): Promise<ConnectorView[]> {
    const connectors = await this.connectors.listByAccount(admin.accountId);
    const lastRuns = await this.runs.latest(connectors.map((c) => c.id));
    return connectors.map((connector) => toConnectorView(connector, lastRuns.get(connector.id)));
  }

  async get(admin: AdminIdentity, id: string): Promise<ConnectorView> {
    const connector = await this.findOwned(admin, id);
    const lastRuns = await this.runs.latest([id]);
    return toConnectorView(connector, lastRuns.get(id));
  }

  /** A live connector of the admin's account, or 404 (also for another account's connector). */
  async findOwned(admin: AdminIdentity, id: string): Promise<ConnectorEntity> {
    const connector = await this.connectors.findOwned(admin.accountId, id);
    if (!connector) throw RegistryException.notFound();
    return connector;
  }

  async update(admin: AdminIdentity, id: string, dto: UpdateConnectorDto): Promise<ConnectorView> {
    const current = await this.findOwned(admin, id);
    const kind = this.kinds.of(current.type);
    // Everything that can be checked is checked before the gateway is asked: once it has stored new
    // credentials (client-credentials types) that cannot be undone, so the row below must follow them.
    const options = dto.options && definedOnly(validateAs(kind.optionsClass, dto.options, 'options'));
    if (dto.status) this.checkAdminStatus(current, dto.status);
    // Outside the row lock: the gateway may take seconds (it tests the credentials with the ATS). It validates
    // the config before it asks the gateway anything.
    const configChange = dto.config === undefined ? undefined : await kind.changeConfig(current, dto.config);
    const now = new Date();
    let refused: string | undefined;
    let result: Awaited<ReturnType<ConnectorRepository['updateLocked']>>;
    try {
      result = await this.connectors.updateLocked(id, (connector) => {
        if (dto.name !== undefined) connector.name = dto.name;
        if (options) connector.options = { ...connector.options, ...options };
        if (configChange) {
          connector.config = configChange.config;
          const reported = configChange.connected && applyReportedStatus(connector, 'connected', now);
          if (reported) Object.assign(connector, reported);
        }
        if (dto.status) {
          const change = changeStatusByAdmin(connector, dto.status, now);
          if (change.ok) {
            Object.assign(connector, change.state);
          } else {
            // The status changed since the check above (another request, the gateway).
            refused = change.reason;
            // The gateway already uses the new credentials: the row follows them, without the status.
            if (!configChange) return undefined;
            refused += ' (the other changes were saved)';
          }
        }
        connector.updatedAt = now;
        return connector;
      });
    } catch (error) {
      if (configChange) {
        this.logger.error(
          `connector ${id}: auth-gateway holds the new credentials but the registry row was not updated ` +
            `(its config is the old one until the next successful save): ${(error as Error).message}`,
        );
      }
      throw error;
    }
    if (!result) {
      // Deleted meanwhile: the deletion may have erased the secrets before the gateway stored these.
      if (configChange) await this.eraseCredentials(admin.accountId, id);
      throw RegistryException.notFound();
    }
    if (refused && !result.after) throw new RegistryException(RegistryErrorCode.InvalidStatusChange, refused);
    const after = result.after ?? result.before;
    if (options && 'dailyCallLimit' in options) await this.budget.limitChanged(after);
    if (after.status !== result.before.status) {
      await this.publishStatus(after, after.status, `changed by admin ${admin.adminId}`);
    }
    await this.announceChange(id);
    if (refused) throw new RegistryException(RegistryErrorCode.InvalidStatusChange, refused);
    return this.get(admin, id);
  }

  /**
   * Secrets are erased, the connector disappears (a 404 from now on), and the platform is told. The
   * `connector.status_changed {reason: deleted}` that tells the gateway to erase the secrets (when the erase
   * request below found it unreachable) is stored with the deletion and published by the outbox relay.
   */
  async remove(admin: AdminIdentity, id: string): Promise<void> {
    const connector = await this.findOwned(admin, id);
    await this.eraseCredentials(admin.accountId, id);
    await this.connectors.markDeleted(id, [
      { exchange: Exchange.ConnectorEvents, envelope: statusEvent(connector, 'disabled', 'deleted') },
    ]);
    this.outbox.wake();
    this.logger.log(`connector ${id} deleted by ${admin.adminId}`);
    await this.announceChange(id);
  }

  /** `connector.status_changed` (from auth-gateway, or our own): the status, unless deleted or older. */
  async onStatusChanged(event: EventEnvelope<string, { connectorId: string; status: ConnectorStatus }>) {
    const at = new Date(event.occurredAt);
    const result = await this.connectors.updateLocked(event.data.connectorId, (connector) => {
      if (connector.accountId !== event.accountId) return undefined;
      const next = applyReportedStatus(connector, event.data.status, at);
      return next && Object.assign(connector, next, { updatedAt: new Date() });
    });
    if (!result) {
      this.logger.warn(
        `status_changed ${event.id} for unknown or deleted connector ${event.data.connectorId}`,
      );
    } else if (result.after) {
      this.logger.log(`connector ${event.data.connectorId} status: ${result.after.status}`);
      await this.announceChange(event.data.connectorId);
    }
  }

  /** The OAuth callback came back: the connector is connected (if it still exists in that account). */
  async markAuthorized(accountId: string, connectorId: string): Promise<boolean> {
    const result = await this.connectors.updateLocked(connectorId, (connector) => {
      if (connector.accountId !== accountId) return undefined;
      const next = applyReportedStatus(connector, 'connected', new Date());
      return next && Object.assign(connector, next, { updatedAt: new Date() });
    });
    if (!result || result.before.accountId !== accountId) return false;
    await this.publishStatus(result.after ?? result.before, 'connected');
    await this.announceChange(connectorId);
    return true;
  }

  /**
   * An interactive login completed for a connector deleted meanwhile: auth-gateway stored its refresh token after
   * the deletion's erase. The deletion is announced again (outbox, so it survives a broker outage), and
   * auth-gateway erases what it holds for the connector, as for any deletion.
   */
  async eraseAfterLateLogin(accountId: string, connectorId: string): Promise<void> {
    if (await this.connectors.isLive(connectorId)) return; // live under another account: not this login's
    await this.connectors.announce([
      {
        exchange: Exchange.ConnectorEvents,
        envelope: createEvent(RoutingKey.ConnectorStatusChanged, accountId, {
          connectorId,
          status: 'disabled' as const,
          reason: 'deleted',
        }),
      },
    ]);
    this.outbox.wake();
    this.logger.log(
      `connector ${connectorId} was deleted during its interactive login: its credentials erased`,
    );
  }

  async snapshot(connectorId: string): Promise<ConnectorSnapshot> {
    const connector = await this.connectors.findLive(connectorId);
    if (!connector) throw new ConnectorNotFoundError(connectorId);
    return toSnapshot(connector, await this.mappings.current(connector.id));
  }

  async snapshotsOf(accountId: string): Promise<ConnectorSnapshot[]> {
    const connectors = await this.connectors.listByAccount(accountId);
    return Promise.all(connectors.map(async (c) => toSnapshot(c, await this.mappings.current(c.id))));
  }

  /**
   * Tells every worker process that the connector changed (options, config, mapping, status, deletion), so
   * the next message is handled with the new values; awaited before the admin API answers.
   */
  async announceChange(connectorId: string): Promise<void> {
    const connector = await this.connectors.findAny(connectorId);
    if (!connector) return;
    const version = snapshotVersion(connector, await this.mappings.current(connectorId));
    const event = createEvent(RoutingKey.ConnectorChanged, connector.accountId, { connectorId, version });
    try {
      await this.publisher.publish(Exchange.Internal, event);
    } catch (error) {
      // Saved all the same; workers see it when their snapshot expires (seconds).
      this.logger.error(`could not announce the change of ${connectorId}: ${(error as Error).message}`);
    }
  }

  /** Options given with a test or a create, checked like a PATCH's; only the values given. */
  private validOptions(kind: ConnectorKind, options: Record<string, unknown> | undefined) {
    return options ? definedOnly(validateAs(kind.optionsClass, options, 'options')) : undefined;
  }

  private checkAdminStatus(state: StatusState, wanted: 'disabled' | 'connected'): void {
    const change = changeStatusByAdmin(state, wanted, new Date());
    if (!change.ok) throw new RegistryException(RegistryErrorCode.InvalidStatusChange, change.reason);
  }

  /**
   * Best effort: when the gateway does not answer, the connector is deleted anyway (the admin asked) and
   * the `connector.status_changed {reason: deleted}` stored with the deletion (outbox) tells the gateway to
   * erase them when the broker and the gateway are back.
   */
  private async eraseCredentials(accountId: string, connectorId: string): Promise<void> {
    try {
      await this.gateway.eraseCredentials(accountId, connectorId);
    } catch (error) {
      const why = isUnanswered(error) ? 'auth-gateway did not answer' : (error as Error).message;
      this.logger.warn(`could not erase the credentials of connector ${connectorId}: ${why}`);
    }
  }

  private async publishStatus(connector: ConnectorEntity, status: ConnectorStatus, reason?: string) {
    const event = statusEvent(connector, status, reason);
    try {
      await this.publisher.publish(Exchange.ConnectorEvents, event);
    } catch (error) {
      // The change itself is saved; say loudly that the platform was not told.
      this.logger.error(`could not publish ${event.type} for ${connector.id}: ${(error as Error).message}`);
    }
  }
}

function statusEvent(connector: ConnectorEntity, status: ConnectorStatus, reason?: string) {
  return createEvent(RoutingKey.ConnectorStatusChanged, connector.accountId, {
    connectorId: connector.id,
    status,
    ...(reason ? { reason } : {}),
  });
}

/** An RPC error reply carries `code` (see RabbitMqServer.answer). */
class ConnectorNotFoundError extends Error {
  readonly code = 'NOT_FOUND';
  constructor(connectorId: string) {
    super(`connector ${connectorId} not found`);
  }
}

function connectorLimit(max: number): RegistryException {
  return new RegistryException(
    RegistryErrorCode.ConnectorLimit,
    `This account has ${max} connectors, the most it may have; delete one to add another`,
    { limit: max },
  );
}
