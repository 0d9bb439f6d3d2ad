import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { PeriodicJob } from '@connector/service-kit';
import { AuthGatewayConfig } from '../auth-gateway.config';
import { CredentialsRepository } from './credentials.repository';
import { CredentialsService } from './credentials.service';

/**
 * Tries refused client-credentials secrets again when they are due, so a connector the ATS refused during maintenance (a
 * proxy's 401, a 400 page) comes back by itself without waiting for a worker to ask.
 */
@Injectable()
export class CredentialRecheckJob implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(CredentialRecheckJob.name);
  private readonly job = new PeriodicJob(this.logger, 're-check of refused credentials', () =>
    this.recheckDue(),
  );

  constructor(
    private readonly repository: CredentialsRepository,
    private readonly credentials: CredentialsService,
    @Inject(AuthGatewayConfig) private readonly config: AuthGatewayConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.job.start(Math.min(this.config.CREDENTIAL_RECHECK_SECONDS, 60) * 1000);
  }

  onModuleDestroy(): void {
    this.job.stop();
  }

  async runOnce(): Promise<void> {
    await this.job.runOnce();
  }

  /** One pass over the due connectors; a failure leaves the connector for the next pass. */
  private async recheckDue(): Promise<void> {
    for (const connectorId of await this.repository.dueForRecheck()) {
      await this.credentials.getAccess(connectorId).then(
        () => this.logger.log(`connector ${connectorId}: the ATS accepts its credentials again`),
        (error: Error) => this.logger.debug(`connector ${connectorId} still refused: ${error.message}`),
      );
    }
  }
}
