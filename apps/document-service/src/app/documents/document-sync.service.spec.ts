import { atsRegistry } from '@connector/ats-registry';
import { AtsSystems, type ConnectorDirectory } from '@connector/ats-client-factory';
import type { OutboundGuard } from '@connector/ats-http';
import { type ConnectorSnapshot, createEvent, type DocumentDataDto, RoutingKey } from '@connector/contracts';
import type { CandidateLocks } from '@connector/exactly-once';
import type { Lease } from '@connector/persistence';
import type { DocumentServiceConfig } from '../document-service.config';
import type { CandidateRefRepository } from '../candidate-refs/candidate-ref.repository';
import type { DocumentEvents } from '../common/document-events';
import type { DocumentLinkRepository } from './document-link.repository';
import type { DocumentSink } from '@connector/ats-core';
import type { DocumentSinks } from './document-sinks';
import { type DocumentEvent, DocumentSyncService } from './document-sync.service';

describe(DocumentSyncService.name, () => {
  it('looks for an unsure upload of the same file under the document it was sent as, too', async () => {
    const connector = { id: 'c-b', type: 'ats-b' } as ConnectorSnapshot;
    const data: DocumentDataDto = {
      documentId: 'doc-b',
      candidateId: 'cand-1',
      kind: 'cv',
      fileName: 'cv.pdf',
      contentType: 'application/pdf',
      sizeBytes: 8,
      sha256: 'a'.repeat(64),
      url: 'https://files.example/cv.pdf',
    };
    const event = createEvent(RoutingKey.DocumentUploaded, 'acct', data) as DocumentEvent;
    // The file's claim is pending: document doc-a's upload of it got no answer.
    const pending = { documentId: 'doc-a', state: 'pending', externalId: null, updatedAt: new Date() };
    const findExisting = jest.fn(async () => '178');
    const sink = { findExisting, upload: jest.fn() } as unknown as DocumentSink;
    const lease: Lease = { key: 'k', token: 3, signal: new AbortController().signal };
    const documentSynced = jest.fn(async () => undefined);
    const service = new DocumentSyncService(
      {} as ConnectorDirectory,
      {} as DocumentSinks,
      {} as CandidateRefRepository,
      {
        claimOrFind: () => ({ found: () => ({ erased: false, claimed: false, link: pending }) }),
        link: async () => undefined,
      } as unknown as DocumentLinkRepository,
      {
        runBy: (claim: { found(): unknown }, work: (l: Lease, found: unknown) => Promise<unknown>) =>
          work(lease, claim.found()),
      } as unknown as CandidateLocks,
      { documentSynced } as unknown as DocumentEvents,
      {} as DocumentServiceConfig,
      {} as OutboundGuard,
      new AtsSystems(atsRegistry),
    );
    await (
      service as unknown as {
        attach(upload: object, event: DocumentEvent, content: Buffer): Promise<void>;
      }
    ).attach({ connector, sink, candidateExternalId: '3747' }, event, Buffer.from('%PDF-1.7'));
    expect(findExisting).toHaveBeenCalledWith('3747', ['doc-a', 'doc-b']);
    expect(sink.upload).not.toHaveBeenCalled();
    expect(documentSynced).toHaveBeenCalledWith(event, expect.objectContaining({ externalId: '178' }));
  });
});
