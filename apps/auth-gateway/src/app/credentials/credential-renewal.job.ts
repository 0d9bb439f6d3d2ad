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

/** How often the job looks for access due to be renewed ahead. */
const TICK_MS = 5_000;
/** A claimed renewal that failed is tried again this much later (the worker's own request renews meanwhile). */
const RETRY_MS = 30_000;
/** Renewals the job runs at once: a share of RENEWALS_MAX, so workers' own requests keep slots. */
const JOB_SHARE = 1 / 2;

/**
 * Renews access in use before it ends (with the last third of its life left, at least 2 minutes, see
 * `renewAtOf`), so a run or a push finds fresh access and never waits on a renewal. Each tick claims a
 * bounded batch through an index (two processes never claim the same row) and renews it with bounded
 * concurrency, through the service's lease and per-system slots like any renewal.
 */
@Injectable()
export class CredentialRenewalJob implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(CredentialRenewalJob.name);
  private readonly job = new PeriodicJob(this.logger, 'renewing access ahead of its end', () =>
    this.renewDue(),
  );

  constructor(
    private readonly repository: CredentialsRepository,
    private readonly credentials: CredentialsService,
    @Inject(AuthGatewayConfig)
    private readonly config: Pick<AuthGatewayConfig, 'RENEW_AHEAD_BATCH' | 'RENEWALS_MAX'>,
  ) {}

  onApplicationBootstrap(): void {
    this.job.start(TICK_MS);
  }

  onModuleDestroy(): void {
    this.job.stop();
  }

  /** One tick: the connectors renewed (none when a tick is under way or the claim failed). */
  async runOnce(): Promise<number> {
    return (await this.job.runOnce()) ?? 0;
  }

  /** The due batch, renewed a few at a time; a failure leaves that connector for RETRY_MS later. */
  private async renewDue(): Promise<number> {
    const due = await this.repository.claimDueRenewals(this.config.RENEW_AHEAD_BATCH, RETRY_MS);
    const queue = [...due];
    let renewed = 0;
    const lane = async () => {
      for (let claimed = queue.shift(); claimed; claimed = queue.shift()) {
        const { connectorId, fingerprint } = claimed;
        await this.credentials.renewAhead(connectorId, fingerprint).then(
          () => void (renewed += 1),
          (error: Error) => this.logger.debug(`connector ${connectorId} not renewed ahead: ${error.message}`),
        );
      }
    };
    const lanes = Math.max(1, Math.floor(this.config.RENEWALS_MAX * JOB_SHARE));
    await Promise.all(Array.from({ length: Math.min(lanes, due.length) }, lane));
    return renewed;
  }
}
