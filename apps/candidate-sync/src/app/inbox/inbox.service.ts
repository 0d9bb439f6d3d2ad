import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { EventEnvelope } from '@connector/contracts';
import { InboxRepository } from '@connector/persistence';
import { SERVICE_NAME } from '../candidate-sync.config';

/** Records each message the first time it arrives; a redelivery of the same id is noticed and skipped. */
@Injectable()
export class InboxService {
  private readonly logger = new Logger(InboxService.name);
  private readonly repository: InboxRepository;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.repository = new InboxRepository(dataSource);
  }

  async receive(event: EventEnvelope): Promise<void> {
    const first = await this.repository.record(SERVICE_NAME, event);
    this.logger.log(`${first ? 'received' : 'already had'} ${event.type} ${event.id}`);
  }
}
