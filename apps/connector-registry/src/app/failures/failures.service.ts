import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { Exchange, Header, Queue, REQUEST_TYPES, RoutingKey } from '@connector/contracts';
import {
  type BrokerUsers,
  type DeadLetter,
  DeadLetterCollector,
  deadLetterWriters,
  MessagePublisher,
  operationFailedOf,
  publisherRefusal,
  RabbitConnection,
  replayDeadLetter,
  tooLargeCut,
} from '@connector/messaging';
import { brokerUsersOf, ErasedCandidates, redactBody, redactText } from '@connector/service-kit';
import { ConnectorRegistryConfig } from '../connector-registry.config';
import type { AdminIdentity } from '../auth/api-keys';
import { RegistryErrorCode, RegistryException } from '../common/registry.exception';
import { ConnectorRepository } from '../repositories/connector.repository';
import { AccountFailureBudget } from './account-failure-budget';
import type { DeadLetterEntity } from './dead-letter.entity';
import { DeadLetterRepository } from './dead-letter.repository';

/** What the admin API shows of a failure; `message` (the body) only on the single-failure read. */
export interface FailureView {
  id: string;
  connectorId: string | null;
  type: string | null;
  routingKey: string;
  messageId: string | null;
  reasons: string[];
  retryable: boolean;
  failedAt: string;
  replayedAt: string | null;
  replayCount: number;
  message?: unknown;
}

/**
 * Erasure's own messages carry ids, nobody's data: their dead letters are kept even once the candidate is
 * erased, or an erasure that failed in some service would stay incomplete unseen, with nothing to replay.
 */
const ERASURE_MESSAGES: ReadonlySet<string> = new Set([
  RoutingKey.CandidateErased,
  RoutingKey.ErasurePartCompleted,
  RoutingKey.CandidateErasureCompleted,
]);

/**
 * The operator's failure log: every service's dead letters are moved here (the `<queue>.dead` queues are
 * drained into Postgres), listed per account and connector, and replayed into the queue they failed in.
 */
@Injectable()
export class FailuresService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(FailuresService.name);
  private collector?: DeadLetterCollector;
  private readonly users: BrokerUsers;
  private readonly budget: AccountFailureBudget;

  constructor(
    private readonly deadLetters: DeadLetterRepository,
    private readonly connectors: ConnectorRepository,
    private readonly connection: RabbitConnection,
    private readonly publisher: MessagePublisher,
    private readonly erased: ErasedCandidates,
    @Inject(ConnectorRegistryConfig) config: ConnectorRegistryConfig,
  ) {
    this.users = brokerUsersOf(config);
    this.budget = new AccountFailureBudget({
      bodiesPerHour: config.FAILURE_LOG_BODIES_PER_ACCOUNT_HOUR,
      bytesPerHour: config.FAILURE_LOG_BYTES_PER_ACCOUNT_HOUR,
    });
  }

  onApplicationBootstrap(): void {
    this.collector = new DeadLetterCollector(
      this.connection,
      Object.values(Queue),
      (deadLetter) => this.keep(deadLetter),
      undefined,
      deadLetterWriters(this.users),
    );
    this.collector.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.collector?.close();
  }

  /**
   * Kept, then reported when its service could not (the broker dead-lettered it at the delivery limit). A dead
   * letter about an erased candidate is not kept: its body is that person's data (erasure's own messages
   * excepted: ERASURE_MESSAGES).
   */
  private async keep(deadLetter: DeadLetter): Promise<void> {
    const { accountId, candidateId } = deadLetter;
    const personal = !ERASURE_MESSAGES.has(deadLetter.routingKey);
    if (personal && accountId && candidateId && (await this.erased.isErased(accountId, candidateId))) {
      this.logger.log(
        `dead letter ${deadLetter.messageId ?? ''} of erased candidate ${candidateId} not kept`,
      );
      return;
    }
    const stored = this.withinBudget(withoutSecrets(deadLetter));
    await this.deadLetters.keep(stored);
    // An erasure between the check above and the insert deleted the rows before this one existed: look again.
    if (personal && accountId && candidateId && (await this.erased.isErased(accountId, candidateId))) {
      await this.deadLetters.eraseCandidate(accountId, candidateId);
      this.logger.log(
        `dead letter ${deadLetter.messageId ?? ''} of candidate ${candidateId} erased meanwhile`,
      );
      return;
    }
    if (!stored.reported) {
      await this.publisher.publish(Exchange.ConnectorEvents, operationFailedOf(stored));
    }
  }

  /** Past the account's cap this hour, the dead letter is recorded without its body (and cannot be replayed). */
  private withinBudget(deadLetter: DeadLetter): DeadLetter {
    if (this.budget.take(deadLetter.accountId ?? 'unknown', deadLetter.body.length)) return deadLetter;
    this.logger.warn(
      `account ${deadLetter.accountId ?? 'unknown'} is over its failure log cap: dead letter ` +
        `${deadLetter.messageId ?? ''} kept without its body`,
    );
    return {
      ...deadLetter,
      body: Buffer.alloc(0),
      reasons: [...deadLetter.reasons, this.budget.describe()],
      retryable: false,
    };
  }

  async list(admin: AdminIdentity, filter: { connectorId?: string; limit?: number }): Promise<FailureView[]> {
    if (filter.connectorId && !(await this.connectors.findOwned(admin.accountId, filter.connectorId))) {
      throw RegistryException.notFound();
    }
    const rows = await this.deadLetters.list({
      accountId: admin.accountId,
      connectorId: filter.connectorId,
      limit: filter.limit ?? 50,
    });
    return rows.map((row) => view(row));
  }

  async get(admin: AdminIdentity, id: string): Promise<FailureView> {
    const row = await this.deadLetters.findOwned(admin.accountId, id);
    if (!row) throw RegistryException.notFound('failure');
    return view(row, true);
  }

  /** Sends the message back to the queue it failed in; its consumer handles it as a first attempt. */
  async replay(admin: AdminIdentity, id: string): Promise<{ replayed: true }> {
    const row = await this.deadLetters.findOwned(admin.accountId, id);
    if (!row) throw RegistryException.notFound('failure');
    const refusal = replayRefusal(row, this.users);
    if (refusal) {
      // The failure log says why, for whoever looks next.
      const note = `replay refused: ${refusal}`;
      if (!row.reasons.includes(note)) await this.deadLetters.addReason(row.id, note);
      this.logger.warn(`failure ${row.id} (${row.type ?? row.routingKey}) not replayed: ${refusal}`);
      throw new RegistryException(RegistryErrorCode.NotReplayable, refusal);
    }
    await replayDeadLetter(
      this.publisher,
      { ...row, messageId: row.messageId ?? undefined, publishedBy: row.publishedBy ?? undefined },
      row.id,
    );
    await this.deadLetters.markReplayed(row.id);
    this.logger.log(`replayed failure ${row.id} (${row.type ?? row.routingKey}) into ${row.queue}`);
    return { replayed: true };
  }
}

/**
 * What the failure log may keep of a dead letter: no secret (REQUEST_TYPES never get here, but any body with a
 * secret field is redacted, and then cannot be replayed as it was), and reasons scrubbed as log lines are.
 */
function withoutSecrets(received: DeadLetter): DeadLetter {
  const deadLetter = cutShort(received);
  const { body, redacted } = redactBody(deadLetter.body);
  const reasons = deadLetter.reasons.map((reason) => redactText(reason));
  if (!redacted) return { ...deadLetter, reasons };
  return {
    ...deadLetter,
    body,
    reasons: [...reasons, 'secrets removed from the stored message: it cannot be replayed'],
    retryable: false,
  };
}

/**
 * A body over MAX_MESSAGE_BYTES (the broker dead-lettered it whole) is cut as the transport cuts one; either
 * way the failure says how large the whole was and its SHA-256, and it is not replayable.
 */
function cutShort(deadLetter: DeadLetter): DeadLetter {
  const cut = tooLargeCut(deadLetter.body);
  const bytes = cut?.bytes ?? deadLetter.headers[Header.OriginalBytes];
  const sha256 = cut?.sha256 ?? deadLetter.headers[Header.OriginalSha256];
  if (typeof bytes !== 'number' || typeof sha256 !== 'string') return deadLetter;
  const body = cut?.body ?? deadLetter.body;
  return {
    ...deadLetter,
    body,
    reasons: [
      ...deadLetter.reasons,
      `kept the first ${body.length} of its ${bytes} bytes (sha256 ${sha256.slice(0, 64)}): it cannot be replayed`,
    ],
    retryable: false,
  };
}

/**
 * Why a failure must not be replayed, or undefined: a request; a failure that is not retryable (invalid, refused,
 * permanent, or forged); or a sender that may not publish its type, checked again as the consumer would.
 */
function replayRefusal(row: DeadLetterEntity, users: BrokerUsers): string | undefined {
  const type = row.type ?? row.routingKey;
  if (REQUEST_TYPES.has(row.routingKey) || (row.type !== null && REQUEST_TYPES.has(row.type))) {
    return `${type} is a request: its requester has given up, it is never replayed`;
  }
  if (!row.retryable) return `not retryable: ${row.reasons[0] ?? 'no reason recorded'}`;
  return publisherRefusal(row.routingKey, row.publishedBy ?? undefined, users);
}

function view(row: DeadLetterEntity, withMessage = false): FailureView {
  let message: unknown;
  if (withMessage) {
    try {
      message = JSON.parse(row.body.toString('utf8'));
    } catch {
      message = row.body.toString('utf8');
    }
  }
  return {
    id: row.id,
    connectorId: row.connectorId,
    type: row.type,
    routingKey: row.routingKey,
    messageId: row.messageId,
    reasons: row.reasons,
    retryable: row.retryable,
    failedAt: row.failedAt.toISOString(),
    replayedAt: row.replayedAt?.toISOString() ?? null,
    replayCount: row.replayCount,
    ...(withMessage ? { message } : {}),
  };
}
