import type { MessageType } from './message-types';
import { Exchange, type ExchangeName, RoutingKey } from './topology';

/**
 * The exchange each message type travels on. `platform.events` and `connector.events` are the public contract
 * (docs/asyncapi.yaml is generated from them); a new message type does not compile until it is placed here.
 */
export const MESSAGE_EXCHANGE = {
  [RoutingKey.CandidateCreated]: Exchange.PlatformEvents,
  [RoutingKey.CandidateUpdated]: Exchange.PlatformEvents,
  [RoutingKey.ApplicationSubmitted]: Exchange.PlatformEvents,
  [RoutingKey.ApplicationUpdated]: Exchange.PlatformEvents,
  [RoutingKey.DocumentUploaded]: Exchange.PlatformEvents,
  [RoutingKey.CandidateErased]: Exchange.PlatformEvents,
  [RoutingKey.VacancyUpserted]: Exchange.ConnectorEvents,
  [RoutingKey.VacancyClosed]: Exchange.ConnectorEvents,
  [RoutingKey.CandidateSynced]: Exchange.ConnectorEvents,
  [RoutingKey.ApplicationSynced]: Exchange.ConnectorEvents,
  [RoutingKey.DocumentSynced]: Exchange.ConnectorEvents,
  [RoutingKey.RunCompleted]: Exchange.ConnectorEvents,
  [RoutingKey.OperationFailed]: Exchange.ConnectorEvents,
  [RoutingKey.OperationUnsupported]: Exchange.ConnectorEvents,
  [RoutingKey.ConnectorStatusChanged]: Exchange.ConnectorEvents,
  [RoutingKey.CandidateErasureCompleted]: Exchange.ConnectorEvents,
  [RoutingKey.RunRequested]: Exchange.Internal,
  [RoutingKey.RunProgress]: Exchange.Internal,
  [RoutingKey.CredentialsRequested]: Exchange.Internal,
  [RoutingKey.AuthConnectionTest]: Exchange.Internal,
  [RoutingKey.AuthCredentialsSave]: Exchange.Internal,
  [RoutingKey.AuthAuthorizationStart]: Exchange.Internal,
  [RoutingKey.AuthAuthorizationComplete]: Exchange.Internal,
  [RoutingKey.AuthCredentialsErase]: Exchange.Internal,
  [RoutingKey.VacancyPreviewRequested]: Exchange.Internal,
  [RoutingKey.VacancyEventFeedRequested]: Exchange.Internal,
  [RoutingKey.ConnectorLookup]: Exchange.Internal,
  [RoutingKey.ConnectorsByAccount]: Exchange.Internal,
  [RoutingKey.ConnectorChanged]: Exchange.Internal,
  [RoutingKey.ErasurePartCompleted]: Exchange.Internal,
} as const satisfies Record<MessageType, ExchangeName>;

/**
 * The types asked over request-reply (`replyTo`): their requester waits a few seconds, then gives up, and
 * several carry secrets (`auth.credentials.save`, `auth.connection.test`: a client secret). So they are
 * answered or dropped, never retried, dead-lettered, kept in the failure log or replayed.
 */
export const REQUEST_TYPES: ReadonlySet<string> = new Set<MessageType>([
  RoutingKey.CredentialsRequested,
  RoutingKey.AuthConnectionTest,
  RoutingKey.AuthCredentialsSave,
  RoutingKey.AuthAuthorizationStart,
  RoutingKey.AuthAuthorizationComplete,
  RoutingKey.AuthCredentialsErase,
  RoutingKey.VacancyPreviewRequested,
  RoutingKey.VacancyEventFeedRequested,
  RoutingKey.ConnectorLookup,
  RoutingKey.ConnectorsByAccount,
]);
