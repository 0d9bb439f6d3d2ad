import type { AtsAdapter, VacancyPartDeps } from '@connector/ats-core';
import { atsAAccessOf } from './ats-a-access';
import { atsAApplicationSink } from './applications/ats-a-application.sink';
import { atsACandidateSink } from './candidates/ats-a-candidate.sink';
import { atsADocumentSink } from './documents/ats-a-document.sink';
import { atsAConnectorKind } from './ats-a.connector-kind';
import { atsACredentialIssuer } from './credentials/ats-a-credential.issuer';
import { atsAClientCredentials } from './credentials/ats-a-setup';
import { makeAtsAClients } from './ats-a-clients';
import { ATS_A_SOURCE_PATHS } from './ats-a-vacancy-fields';
import { atsAQuota } from './budget/ats-a-budget';
import type { AtsAClient } from './client/ats-a.client';
import { AtsAVacancySource } from './vacancies/ats-a-vacancy.source';

/** ATS-A (/work/shared/ats-a.md): client credentials, a shared daily call budget, every capability. */
export const atsAAdapter = {
  type: 'ats-a' as const,
  label: 'ATS-A',
  capabilities: [
    'vacancies',
    'candidates',
    'applications',
    'documents',
    'daily-budget',
    'client-credentials',
  ],
  mapping: {
    atsType: 'ats-a',
    sourcePaths: new Set(ATS_A_SOURCE_PATHS),
    defaults: {
      fields: {
        title: { from: 'Title' },
        location: { from: 'Location' },
        description: { from: 'Description' },
        requirements: { from: 'Requirements' },
        status: { from: 'VacancyStatus' },
        salary: { from: 'Salary' },
        companyName: { from: 'Company.Name' },
      },
    },
  },
  accessOf: atsAAccessOf,
  connectorKind: atsAConnectorKind,
  callTokenOf: (access) => atsAAccessOf(access).accessToken,
  budget: (connector) => ({ kind: 'daily-quota', ...atsAQuota(connector) }),
  makeClients: makeAtsAClients,
  clientCredentials: atsAClientCredentials,
  credentialIssuer: atsACredentialIssuer,
  vacancySource: (deps: VacancyPartDeps<AtsAClient>) => new AtsAVacancySource(deps),
  candidateSink: atsACandidateSink,
  documentSink: atsADocumentSink,
  applicationSink: atsAApplicationSink,
} satisfies AtsAdapter;
