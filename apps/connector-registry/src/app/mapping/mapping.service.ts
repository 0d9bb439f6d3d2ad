import { Injectable } from '@nestjs/common';
import { type JobMapping, validateJobMapping } from '@connector/job-mapping';
import { AtsRegistry } from '@connector/ats-core';
import type { AdminIdentity } from '../auth/api-keys';
import { dependencyError } from '../clients/dependency-errors';
import { VacancySyncClient } from '../clients/vacancy-sync.client';
import { RegistryErrorCode, RegistryException } from '../common/registry.exception';
import { ConnectorsService } from '../connectors/connectors.service';
import { JobMappingRepository } from '../repositories/job-mapping.repository';
import type { JobMappingEntity } from './job-mapping.entity';

export interface MappingView {
  version: number;
  mapping: JobMapping;
  createdAt: string;
  createdBy: string;
}

const DEFAULT_PREVIEW_LIMIT = 5;

/** A connector's job mapping: versioned (every save kept), validated per ATS type, previewed live. */
@Injectable()
export class MappingService {
  constructor(
    private readonly connectors: ConnectorsService,
    private readonly mappings: JobMappingRepository,
    private readonly vacancySync: VacancySyncClient,
    private readonly registry: AtsRegistry,
  ) {}

  async current(admin: AdminIdentity, connectorId: string): Promise<MappingView> {
    await this.connectors.findOwned(admin, connectorId);
    return toView(await this.currentOf(connectorId));
  }

  async save(admin: AdminIdentity, connectorId: string, body: unknown): Promise<MappingView> {
    const connector = await this.connectors.findOwned(admin, connectorId);
    const mapping = this.checked(connector.type, body);
    const saved = await this.mappings.append(connectorId, mapping, admin.adminId);
    await this.connectors.announceChange(connectorId);
    return toView(saved);
  }

  async versions(admin: AdminIdentity, connectorId: string): Promise<MappingView[]> {
    await this.connectors.findOwned(admin, connectorId);
    return (await this.mappings.list(connectorId)).map(toView);
  }

  /** Saves an earlier version's mapping as a new version (history is never rewritten). */
  async rollback(admin: AdminIdentity, connectorId: string, version: number): Promise<MappingView> {
    await this.connectors.findOwned(admin, connectorId);
    const earlier = await this.mappings.version(connectorId, version);
    if (!earlier) throw RegistryException.notFound(`mapping version ${version}`);
    const saved = await this.mappings.append(connectorId, earlier.mapping, admin.adminId);
    await this.connectors.announceChange(connectorId);
    return toView(saved);
  }

  /** vacancy-sync applies the mapping to a few live vacancies; nothing is published. */
  async preview(
    admin: AdminIdentity,
    connectorId: string,
    request: { mapping?: unknown; limit?: number },
  ): Promise<{ vacancies: unknown }> {
    const connector = await this.connectors.findOwned(admin, connectorId);
    const mapping =
      request.mapping === undefined
        ? (await this.currentOf(connectorId)).mapping
        : this.checked(connector.type, request.mapping);
    try {
      const reply = await this.vacancySync.preview(
        admin.accountId,
        connectorId,
        mapping,
        request.limit ?? DEFAULT_PREVIEW_LIMIT,
      );
      const vacancies = isRecord(reply) && 'vacancies' in reply ? reply.vacancies : reply;
      return { vacancies };
    } catch (error) {
      throw dependencyError(error, 'vacancy-sync');
    }
  }

  private checked(type: string, mapping: unknown): JobMapping {
    const errors = validateJobMapping(this.registry.get(type).mapping, mapping);
    if (errors.length > 0) {
      throw new RegistryException(RegistryErrorCode.InvalidMapping, `The mapping is not valid for ${type}`, {
        errors,
      });
    }
    return mapping as JobMapping;
  }

  private async currentOf(connectorId: string): Promise<JobMappingEntity> {
    const current = await this.mappings.current(connectorId);
    if (!current) throw RegistryException.notFound('mapping');
    return current;
  }
}

function toView(entity: JobMappingEntity): MappingView {
  return {
    version: entity.version,
    mapping: entity.mapping,
    createdAt: entity.createdAt.toISOString(),
    createdBy: entity.createdBy,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
