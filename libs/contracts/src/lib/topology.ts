/**
 * Exchange, routing-key and queue names. Apps never spell these as string literals.
 * `platform.events` and `connector.events` are the public exchanges of CONTRACT.md;
 * `connector.internal` carries commands between our own services (run requests, credential requests);
 * `connector.replies` carries the answers to requests, each into its requester's reply queue by name.
 */
export const Exchange = {
  PlatformEvents: 'platform.events',
  ConnectorEvents: 'connector.events',
  Internal: 'connector.internal',
  Replies: 'connector.replies',
} as const;
export type ExchangeName = (typeof Exchange)[keyof typeof Exchange];

export const RoutingKey = {
  // in: platform.events
  CandidateCreated: 'candidate.created',
  CandidateUpdated: 'candidate.updated',
  ApplicationSubmitted: 'application.submitted',
  ApplicationUpdated: 'application.updated',
  DocumentUploaded: 'document.uploaded',
  CandidateErased: 'candidate.erased',
  // out: connector.events
  VacancyUpserted: 'vacancy.upserted',
  VacancyClosed: 'vacancy.closed',
  CandidateSynced: 'candidate.synced',
  ApplicationSynced: 'application.synced',
  DocumentSynced: 'document.synced',
  RunCompleted: 'run.completed',
  OperationFailed: 'operation.failed',
  OperationUnsupported: 'operation.unsupported',
  ConnectorStatusChanged: 'connector.status_changed',
  CandidateErasureCompleted: 'candidate.erasure_completed',
  // internal: connector.internal
  RunRequested: 'run.requested',
  RunProgress: 'run.progress',
  CredentialsRequested: 'credentials.requested',
  AuthConnectionTest: 'auth.connection.test',
  AuthCredentialsSave: 'auth.credentials.save',
  AuthAuthorizationStart: 'auth.authorization.start',
  AuthAuthorizationComplete: 'auth.authorization.complete',
  AuthCredentialsErase: 'auth.credentials.erase',
  VacancyPreviewRequested: 'vacancy.preview.requested',
  VacancyEventFeedRequested: 'vacancy.event-feed.requested',
  ConnectorLookup: 'connector.lookup.requested',
  ConnectorsByAccount: 'connectors.by-account.requested',
  ConnectorChanged: 'connector.changed',
  ErasurePartCompleted: 'erasure.part_completed',
} as const;

/** One durable queue per consuming service; its retry and dead-letter queues derive from it. */
export const Queue = {
  CandidateSync: 'candidate-sync.events',
  DocumentService: 'document-service.events',
  VacancySync: 'vacancy-sync.commands',
  ConnectorRegistry: 'connector-registry.events',
  AuthGateway: 'auth-gateway.commands',
} as const;
export type QueueName = (typeof Queue)[keyof typeof Queue];

/** Header on dead-lettered copies: why the message was dead-lettered (JSON array of strings). */
export const Header = {
  DeadLetterReasons: 'x-dead-letter-reasons',
  Attempt: 'x-attempt',
  OriginalRoutingKey: 'x-original-routing-key',
  OriginalExchange: 'x-original-exchange',
  FailedAt: 'x-failed-at',
  /** On dead-lettered copies: the connector the failure belongs to, when known. */
  ConnectorId: 'x-connector-id',
  /** On dead-lettered copies: whether the failure might pass if replayed later. */
  Retryable: 'x-retryable',
  /** On replayed messages: the dead letter they come from. */
  ReplayOf: 'x-replay-of',
  /** How many times the message waited (e.g. for ATS budget) without it counting as an attempt. */
  Deferrals: 'x-deferrals',
  /**
   * The broker user that first published the message, recorded by its consumer so that retry, dead-letter
   * and replayed copies (published again under our own users) keep it; trusted only on those copies.
   */
  PublishedBy: 'x-published-by',
  /** On dead-lettered copies cut short (too large): the whole body's size in bytes and its SHA-256. */
  OriginalBytes: 'x-original-bytes',
  OriginalSha256: 'x-original-sha256',
} as const;
