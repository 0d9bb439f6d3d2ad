import type { ClassConstructor } from 'class-transformer';
import {
  ApplicationSyncedDto,
  CandidateErasureCompletedDto,
  CandidateSyncedDto,
  ConnectorStatusChangedDto,
  DocumentSyncedDto,
  OperationFailedDto,
  OperationUnsupportedDto,
  RunCompletedDto,
  VacancyClosedDto,
  VacancyUpsertedDto,
} from './connector-events';
import {
  AuthorizationCompleteRequestDto,
  AuthorizationStartRequestDto,
  ConnectionTestRequestDto,
  CredentialsEraseRequestDto,
  CredentialsSaveRequestDto,
} from './auth-requests';
import {
  ConnectorChangedDto,
  ConnectorLookupDto,
  ConnectorsByAccountDto,
  CredentialsRequestedDto,
  ErasurePartCompletedDto,
  RunProgressDto,
  RunRequestedDto,
  VacancyPreviewRequestedDto,
  VacancyEventFeedRequestedDto,
} from './internal-commands';
import { ApplicationDataDto, CandidateDataDto, CandidateErasedDto, DocumentDataDto } from './platform-events';
import { RoutingKey } from './topology';

/** Each message type, its `data` class and the versions this code understands. */
export const MESSAGE_DATA = {
  [RoutingKey.CandidateCreated]: CandidateDataDto,
  [RoutingKey.CandidateUpdated]: CandidateDataDto,
  [RoutingKey.ApplicationSubmitted]: ApplicationDataDto,
  [RoutingKey.ApplicationUpdated]: ApplicationDataDto,
  [RoutingKey.DocumentUploaded]: DocumentDataDto,
  [RoutingKey.CandidateErased]: CandidateErasedDto,
  [RoutingKey.VacancyUpserted]: VacancyUpsertedDto,
  [RoutingKey.VacancyClosed]: VacancyClosedDto,
  [RoutingKey.CandidateSynced]: CandidateSyncedDto,
  [RoutingKey.ApplicationSynced]: ApplicationSyncedDto,
  [RoutingKey.DocumentSynced]: DocumentSyncedDto,
  [RoutingKey.RunCompleted]: RunCompletedDto,
  [RoutingKey.OperationFailed]: OperationFailedDto,
  [RoutingKey.OperationUnsupported]: OperationUnsupportedDto,
  [RoutingKey.ConnectorStatusChanged]: ConnectorStatusChangedDto,
  [RoutingKey.CandidateErasureCompleted]: CandidateErasureCompletedDto,
  [RoutingKey.RunRequested]: RunRequestedDto,
  [RoutingKey.RunProgress]: RunProgressDto,
  [RoutingKey.CredentialsRequested]: CredentialsRequestedDto,
  [RoutingKey.AuthConnectionTest]: ConnectionTestRequestDto,
  [RoutingKey.AuthCredentialsSave]: CredentialsSaveRequestDto,
  [RoutingKey.AuthAuthorizationStart]: AuthorizationStartRequestDto,
  [RoutingKey.AuthAuthorizationComplete]: AuthorizationCompleteRequestDto,
  [RoutingKey.AuthCredentialsErase]: CredentialsEraseRequestDto,
  [RoutingKey.VacancyPreviewRequested]: VacancyPreviewRequestedDto,
  [RoutingKey.VacancyEventFeedRequested]: VacancyEventFeedRequestedDto,
  [RoutingKey.ConnectorLookup]: ConnectorLookupDto,
  [RoutingKey.ConnectorsByAccount]: ConnectorsByAccountDto,
  [RoutingKey.ConnectorChanged]: ConnectorChangedDto,
  [RoutingKey.ErasurePartCompleted]: ErasurePartCompletedDto,
} as const satisfies Record<string, ClassConstructor<object>>;

export type MessageType = keyof typeof MESSAGE_DATA;
export type MessageData<T extends MessageType> = InstanceType<(typeof MESSAGE_DATA)[T]>;

/** Highest `version` of each message this code reads; a newer one is refused, not guessed at. */
export const SUPPORTED_VERSION = 1;

export function isMessageType(type: string): type is MessageType {
  return Object.prototype.hasOwnProperty.call(MESSAGE_DATA, type);
}
