import { ATS_ACCESS_SCHEMAS } from '@connector/ats-client-factory';
import {
  DELETED_CONNECTOR_SCHEMA,
  ERASED_CANDIDATE_SCHEMA,
  KEYED_LEASE_SCHEMA,
} from '@connector/persistence';
import type { ServiceCoreOptions } from '@connector/service-kit';
import { CandidateRefEntity } from './candidate-refs/candidate-ref.entity';
import { DocumentLinkEntity } from './documents/document-link.entity';
import { DocumentServiceTables1763700000400 } from './migrations/1763700000400-document-service-tables';
import { DocumentLinkFence1763900000502 } from './migrations/1763900000502-document-link-fence';
import { DocumentsByCandidate1763900000720 } from './migrations/1763900000720-documents-by-candidate';

/** document-service's tables (entities and the migrations that build them) and the libs' tables it uses. */
export const DOCUMENT_SERVICE_SCHEMA = {
  entities: [CandidateRefEntity, DocumentLinkEntity],
  migrations: [
    DocumentServiceTables1763700000400,
    DocumentLinkFence1763900000502,
    DocumentsByCandidate1763900000720,
  ],
  shared: [...ATS_ACCESS_SCHEMAS, KEYED_LEASE_SCHEMA, ERASED_CANDIDATE_SCHEMA, DELETED_CONNECTOR_SCHEMA],
} satisfies Pick<ServiceCoreOptions, 'entities' | 'migrations' | 'shared'>;
