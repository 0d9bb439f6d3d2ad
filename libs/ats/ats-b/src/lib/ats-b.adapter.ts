import type { AtsAdapter, VacancyPartDeps } from '@connector/ats-core';
import { atsBAccessOf } from './ats-b-access';
import { atsBCandidateSink } from './candidates/ats-b-candidate.sink';
import { atsBDocumentSink } from './documents/ats-b-document.sink';
import { atsBConnectorKind } from './ats-b.connector-kind';
import { atsBCredentialIssuer } from './credentials/ats-b-credential.issuer';
import { atsBInteractiveLogin } from './credentials/ats-b-login';
import { ATS_B_SETTINGS } from './credentials/ats-b-settings';
import { makeAtsBClients } from './ats-b-clients';
import { ATS_B_SOURCE_PATHS } from './ats-b-vacancy-fields';
import { atsBBudget } from './budget/ats-b-budget';
import type { AtsBClient } from './client/ats-b.client';
import { AtsBVacancyEventSource } from './vacancies/ats-b-vacancy-events.source';
import { AtsBVacancySource } from './vacancies/ats-b-vacancy.source';

/** ATS-B (/work/shared/ats-b.md): an interactive OAuth login; no applications. */
export const atsBAdapter = {
  type: 'ats-b' as const,
  label: 'ATS-B',
  capabilities: ['vacancies', 'candidates', 'documents', 'interactive-login', 'vacancy-events'],
  mapping: {
    atsType: 'ats-b',
    sourcePaths: new Set(ATS_B_SOURCE_PATHS),
    defaults: {
      fields: {
        title: { from: 'title' },
        location: { from: 'address.city' },
        // The public description is the one written for job boards; `description` is internal.
        description: { from: 'publicDescription' },
        requirements: { from: 'skillList' },
        status: { from: 'status' },
        employmentType: { from: 'employmentType' },
        companyName: { from: 'clientCorporation.name' },
      },
    },
  },
  accessOf: atsBAccessOf,
  connectorKind: atsBConnectorKind,
  callTokenOf: (access) => atsBAccessOf(access).bhRestToken,
  budget: (connector) => ({ kind: 'token-bucket', ...atsBBudget(connector) }),
  makeClients: makeAtsBClients,
  credentialIssuer: atsBCredentialIssuer,
  interactiveLogin: atsBInteractiveLogin,
  settings: ATS_B_SETTINGS,
  vacancySource: (deps: VacancyPartDeps<AtsBClient>) => new AtsBVacancySource(deps),
  vacancyEventSource: (deps: VacancyPartDeps<AtsBClient>) => new AtsBVacancyEventSource(deps),
  candidateSink: atsBCandidateSink,
  documentSink: atsBDocumentSink,
} satisfies AtsAdapter;
