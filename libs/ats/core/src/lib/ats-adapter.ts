import type { AtsAccess } from '@connector/contracts';
import type { MappingVocabulary } from '@connector/job-mapping';
import type { ApplicationSinkFactory } from './application-sink';
import type { CandidateSinkFactory } from './candidate-sink';
import type { ClientCredentialsSetup } from './client-credentials';
import type { ConnectorKindFactory } from './connector-kind';
import type { CredentialIssuerFactory } from './credential-issuer';
import type { DocumentSinkFactory } from './document-sink';
import type { AtsSetting } from './ats-settings';
import type { InteractiveLoginFactory } from './interactive-login';
import type { AtsBudget, AtsClientDeps, AtsClientMaker, BudgetConnector } from './client-and-budget';
import type { VacancyEventSource } from './vacancy-event-source';
import type { VacancyPartDeps, VacancySource } from './vacancy-source';

/**
 * What a connector service may ask of an ATS. A service that needs a capability the connector's ATS does not
 * declare answers "unsupported" (e.g. `operation.unsupported` for applications on ATS-B): the capabilities
 * say so, not a switch on the ATS's name.
 */
export const ATS_CAPABILITIES = [
  'vacancies',
  'candidates',
  'applications',
  'documents',
  'daily-budget',
  'client-credentials',
  'interactive-login',
  /** The ATS pushes (or queues) vacancy changes: an event feed beside the scheduled runs (ATS-B subscriptions). */
  'vacancy-events',
] as const;
export type AtsCapability = (typeof ATS_CAPABILITIES)[number];

/**
 * One ATS, everything the services need to know of it in one place (docs/adding-an-ats.md). An adapter lives
 * in its own folder (`libs/ats/<name>`) and is listed once in `@connector/ats-registry`.
 */
export interface AtsAdapter {
  /** The connector's `type` on the wire and in the database (`ats-a`). */
  readonly type: string;
  /** Its name for people (`ATS-A`). */
  readonly label: string;
  readonly capabilities: readonly AtsCapability[];
  /** How its job records become platform vacancies (libs/job-mapping). */
  readonly mapping: MappingVocabulary;
  /** `access` (from `credentials.requested`) as this ATS's own access type; throws when it is another's. */
  accessOf(access: AtsAccess): AtsAccess;
  /**
   * The token in an access auth-gateway handed out (`credentials.requested`) that each call sends: a worker
   * names it (fingerprinted) when the ATS refuses it. Throws when the access is not this ATS's.
   */
  callTokenOf(access: AtsAccess): string;
  /**
   * Its connectors in the admin API: config, options, set-up flow and form (connector-registry makes it with
   * what it hands a kind). Every product ATS has one (the registry's connector-kinds spec names any without).
   */
  readonly connectorKind?: ConnectorKindFactory;
  /** What the connector's calls take budget from (auth-gateway's token requests included). */
  budget?(connector: BudgetConnector): AtsBudget;
  /**
   * How this ATS's clients are built from what the process shares (budgets, guard), once per process:
   * `AtsClientFactory` asks it for every connector of this ATS. An ATS with a data capability has one.
   */
  makeClients?(deps: AtsClientDeps): AtsClientMaker<unknown>;
  /**
   * auth-gateway's part of a `client-credentials` ATS: its config class, its secret fields and the set-up steps
   * (test, statuses read) the gateway's generic flow runs.
   */
  readonly clientCredentials?: ClientCredentialsSetup;
  /**
   * auth-gateway's part of an `interactive-login` ATS: the steps of its login (authorize and token ends, code
   * exchange, first session), built from its `settings`.
   */
  readonly interactiveLogin?: InteractiveLoginFactory;
  /**
   * The settings its parts read from auth-gateway's environment under its own prefix (ATS-B: its OAuth
   * client, `ATS_B_*`); auth-gateway's config takes them in without naming them.
   */
  readonly settings?: readonly AtsSetting[];
  /** auth-gateway's part: how a stored secret becomes access (every product ATS has one; its spec names any without). */
  readonly credentialIssuer?: CredentialIssuerFactory;
  /** vacancy-sync's reading of its vacancies, page by page (capability `vacancies`), built once per process. */
  vacancySource?(deps: VacancyPartDeps): VacancySource;
  /** vacancy-sync's event feed of its vacancy changes (capability `vacancy-events`), built once per process. */
  vacancyEventSource?(deps: VacancyPartDeps): VacancyEventSource;
  /** candidate-sync's writer of candidates, made with this adapter's client (an ATS declaring `candidates` has one). */
  readonly candidateSink?: CandidateSinkFactory;
  /** document-service's uploader of documents, made with this adapter's client (an ATS declaring `documents` has one). */
  readonly documentSink?: DocumentSinkFactory;
  /** candidate-sync's writer of applications, made with this adapter's client (an ATS declaring `applications` has one). */
  readonly applicationSink?: ApplicationSinkFactory;
}
