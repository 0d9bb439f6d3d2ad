import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, QueryFailedError, type Repository } from 'typeorm';
import type { JobMapping } from '@connector/job-mapping';
import { JobMappingEntity } from '../mapping/job-mapping.entity';

/** Job mapping versions: append-only; the highest version is current. */
@Injectable()
export class JobMappingRepository {
  private readonly mappings: Repository<JobMappingEntity>;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.mappings = dataSource.getRepository(JobMappingEntity);
  }

  async current(connectorId: string): Promise<JobMappingEntity | null> {
    return this.mappings.findOne({ where: { connectorId }, order: { version: 'DESC' } });
  }

  async version(connectorId: string, version: number): Promise<JobMappingEntity | null> {
    return this.mappings.findOneBy({ connectorId, version });
  }

  async list(connectorId: string): Promise<JobMappingEntity[]> {
    return this.mappings.find({ where: { connectorId }, order: { version: 'DESC' } });
  }

  /** Saves `mapping` as the next version; two saves at once both get a version (the loser retries). */
  async append(connectorId: string, mapping: JobMapping, createdBy: string): Promise<JobMappingEntity> {
    for (let attempt = 1; ; attempt++) {
      const latest = await this.current(connectorId);
      const entity = this.mappings.create({
        connectorId,
        version: (latest?.version ?? 0) + 1,
        mapping,
        createdBy,
      });
      try {
        await this.mappings.insert(entity);
        return (await this.version(connectorId, entity.version)) ?? entity;
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= 5) throw error;
      }
    }
  }
}

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (!(error instanceof QueryFailedError)) return false;
  const driverError = error.driverError as { code?: string; constraint?: string };
  return driverError.code === '23505' && (constraint === undefined || driverError.constraint === constraint);
}
