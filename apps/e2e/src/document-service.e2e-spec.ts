import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { RunningAtsASandbox } from '@connector/ats-a-sandbox';
import type { RunningAtsBSandbox } from '@connector/ats-b-sandbox';
import { atsRegistry } from '@connector/ats-registry';
import type { SandboxFile } from '@connector/ats-sandbox-core/testing';
import { createEvent, type DocumentDataDto, Exchange, Queue, RoutingKey } from '@connector/contracts';
import { deadLetterQueueName } from '@connector/messaging';
import { eventually, type FileServer, startFileServer, timesHandled } from '@connector/testing';
import { type TestWorld, testWorld, type WorldConnector } from '@connector/test-world';

/**
 * document-service end to end, for every registered ATS with `documents`: auth-gateway, candidate-sync and
 * document-service as processes, each ATS's sandbox through its test driver, the files on a small local HTTP
 * server, real RabbitMQ and Postgres; connector-registry stood in for by a responder on its two requests.
 * One account holds a connector on each of those ATSs; what only one vendor does is in its own block.
 */

const ACCOUNT = 'acct_documents'; // a connector on each ATS with documents (ATS-B's "Send Smart CV" off)
const ACCOUNT_SMART = 'acct_documents_smart'; // ATS-B with "Send Smart CV" on
const DOCUMENT_TYPES = atsRegistry.typesWith('documents');
const MAX_DOCUMENT_BYTES = 64 * 1024;

const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex');

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

describe('document-service', () => {
  let world: TestWorld;
  let files: FileServer;
  const connectors = new Map<string, WorldConnector>();
  let smart: WorldConnector;
  const idOf = (type: string) => connectors.get(type)!.id;
  const documentService = () => world.service('document-service');

  const publish = <T extends object>(type: string, data: T, accountId = ACCOUNT) => {
    const event = createEvent(type, accountId, data);
    world.broker.publish(Exchange.PlatformEvents, type, event);
    return event;
  };
  const eventFor = (type: string, sourceId: string, match: Record<string, unknown> = {}) =>
    world.eventFor(type, sourceId, match);
  /** document.synced for `sourceId` from each ATS's connector of the account, in DOCUMENT_TYPES' order. */
  const syncedEverywhere = (sourceId: string, match: Record<string, unknown> = {}) =>
    Promise.all(
      DOCUMENT_TYPES.map((type) =>
        eventFor(RoutingKey.DocumentSynced, sourceId, { connectorId: idOf(type), ...match }),
      ),
    );
  /** A candidate in the account's ATSs, as candidate-sync puts it there: its id in each (by connector). */
  const candidateInAts = async (accountId = ACCOUNT) => {
    const id = randomUUID().slice(0, 8);
    const data = {
      candidateId: `cand-${id}`,
      firstName: 'Grace',
      lastName: 'Hopper',
      email: `grace.${id}@example.com`,
    };
    const created = publish(RoutingKey.CandidateCreated, data, accountId);
    const ids = [...world.connectors.values()].filter((c) => c.accountId === accountId).map((c) => c.id);
    const synced = await Promise.all(
      ids.map((connectorId) => eventFor(RoutingKey.CandidateSynced, created.id, { connectorId })),
    );
    const externalIds: Record<string, string> = Object.fromEntries(
      synced.map((e) => [e.data.connectorId, String(e.data.externalId)]),
    );
    return { candidateId: data.candidateId, externalIds };
  };
  /** The files of the candidate in the ATS of `type` (its connector in the account). */
  const filesIn = (
    type: string,
    externalIds: Record<string, string>,
    connectorId = idOf(type),
  ): SandboxFile[] => world.sandbox(type).files!(externalIds[connectorId]);
  const noFilesAnywhere = (externalIds: Record<string, string>) => {
    for (const type of DOCUMENT_TYPES) expect(filesIn(type, externalIds)).toEqual([]);
  };
  /** A file on the local server and the document event describing it. */
  const document = (
    candidateId: string,
    kind: DocumentDataDto['kind'],
    options: {
      fileName?: string;
      contentType?: string;
      content?: Buffer;
      chunked?: boolean;
      sizeBytes?: number;
      sha256?: string;
    } = {},
  ): DocumentDataDto => {
    const content = options.content ?? Buffer.from(`%PDF-1.7 ${kind} of ${candidateId} ${randomUUID()}`);
    const url = files.serve(content, { chunked: options.chunked });
    return {
      documentId: `doc-${randomUUID().slice(0, 8)}`,
      candidateId,
      kind,
      fileName: options.fileName ?? `${kind}.pdf`,
      contentType: options.contentType ?? 'application/pdf',
      sizeBytes: options.sizeBytes ?? content.length,
      sha256: options.sha256 ?? sha256(content),
      url,
    };
  };

  beforeAll(async () => {
    files = await startFileServer();
    world = await testWorld({
      name: 'e2e_documents',
      services: ['auth-gateway', 'document-service', 'candidate-sync'],
      env: { RETRY_DELAYS_MS: '300,600,1000,2000,3000,5000', ATS_TIMEOUT_MS: '1500' },
      serviceEnv: {
        'document-service': { MAX_DOCUMENT_BYTES: String(MAX_DOCUMENT_BYTES), LOG_LEVEL: 'debug' },
      },
      registry: 'stub',
      sandboxes: DOCUMENT_TYPES,
      sandboxOptions: { vacancies: 5 },
      tap: [Exchange.ConnectorEvents],
    });
    for (const type of DOCUMENT_TYPES)
      connectors.set(type, await world.connect(type, { accountId: ACCOUNT }));
    smart = await world.connect('ats-b', { accountId: ACCOUNT_SMART, options: { sendSmartCv: true } });
  }, 120_000);

  afterAll(async () => {
    await world?.close();
    await files?.close();
  });

  it('uploads a CV to every ATS once, whatever the redeliveries and re-sends of the same file', async () => {
    const { candidateId, externalIds } = await candidateInAts();
    const cv = document(candidateId, 'cv');
    const uploaded = publish(RoutingKey.DocumentUploaded, cv);
    world.broker.publish(Exchange.PlatformEvents, uploaded.type, uploaded); // redelivered
    const synced = await syncedEverywhere(uploaded.id);
    DOCUMENT_TYPES.forEach((type, i) => {
      expect(synced[i].data).toMatchObject({ documentId: cv.documentId, candidateId, action: 'uploaded' });
      expect(filesIn(type, externalIds)).toEqual([
        { externalId: synced[i].data.externalId, name: 'cv.pdf', sha256: cv.sha256 },
      ]);
      wireChecks[type]?.cv?.(world.sandbox(type).running, cv.documentId, synced[i].data.externalId);
    });

    // The same file again under another document id: not attached twice, and said so.
    const again = publish(RoutingKey.DocumentUploaded, {
      ...cv,
      documentId: `doc-${randomUUID().slice(0, 8)}`,
    });
    const skipped = await syncedEverywhere(again.id);
    for (const event of skipped)
      expect(event.data).toMatchObject({
        action: 'skipped',
        reason: expect.stringMatching(/already attached/),
      });
    await eventually(() => timesHandled([documentService()], uploaded.type, uploaded.id) === 2);
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const type of DOCUMENT_TYPES) expect(filesIn(type, externalIds)).toHaveLength(1);
  });

  it('uploads other files as general files, and skips Smart CVs where they are not taken, with the reason', async () => {
    const { candidateId, externalIds } = await candidateInAts();
    const other = publish(
      RoutingKey.DocumentUploaded,
      document(candidateId, 'other', {
        fileName: 'cover.docx',
        contentType: DOCX,
        // The start of a Word file: a ZIP whose parts are [Content_Types].xml and word/…
        content: Buffer.concat([
          Buffer.from([0x50, 0x4b, 0x03, 0x04]),
          Buffer.alloc(26),
          Buffer.from(`[Content_Types].xml … word/document.xml ${randomUUID()}`),
        ]),
      }),
    );
    await syncedEverywhere(other.id, { action: 'uploaded' });
    for (const type of DOCUMENT_TYPES) {
      expect(filesIn(type, externalIds)).toEqual([expect.objectContaining({ name: 'cover.docx' })]);
      wireChecks[type]?.general?.(world.sandbox(type).running, externalIds[idOf(type)]);
    }

    const smartCv = publish(RoutingKey.DocumentUploaded, document(candidateId, 'smart-cv'));
    const skipped = await syncedEverywhere(smartCv.id);
    DOCUMENT_TYPES.forEach((type, i) => {
      expect(skipped[i].data).toMatchObject({ action: 'skipped', reason: expect.any(String) });
      wireChecks[type]?.smartCvSkipped?.(String(skipped[i].data.reason));
      expect(filesIn(type, externalIds)).toHaveLength(1);
    });
  });

  it('lets a document wait for its candidate, then uploads it', async () => {
    const candidateId = `cand-${randomUUID().slice(0, 8)}`;
    const early = publish(RoutingKey.DocumentUploaded, document(candidateId, 'cv'));
    await eventually(() =>
      documentService().output.some((l) => l.includes(early.id) && l.includes('retry in')),
    );
    publish(RoutingKey.CandidateCreated, {
      candidateId,
      firstName: 'Katherine',
      lastName: 'Johnson',
      email: `${candidateId}@example.com`,
    });
    await syncedEverywhere(early.id, { action: 'uploaded' });
    expect(world.events(RoutingKey.OperationFailed).filter((e) => e.data.sourceEventId === early.id)).toEqual(
      [],
    );
  });

  it('cleans file names of control characters and paths before any ATS sees them', async () => {
    const { candidateId, externalIds } = await candidateInAts();
    const event = publish(
      RoutingKey.DocumentUploaded,
      document(candidateId, 'cv', { fileName: '..\\evil\u0007/cv\r\n.pdf' }),
    );
    await syncedEverywhere(event.id, { action: 'uploaded' });
    for (const type of DOCUMENT_TYPES)
      expect(filesIn(type, externalIds).map((f) => f.name)).toEqual(['_evil_cv.pdf']);
  });

  describe('refuses with a clear reason and uploads nothing', () => {
    const refused = async (data: DocumentDataDto, pattern: RegExp, accountId = ACCOUNT) => {
      const event = publish(RoutingKey.DocumentUploaded, data, accountId);
      const failed = await eventFor(RoutingKey.OperationFailed, event.id);
      expect(failed.data).toMatchObject({ sourceType: 'document.uploaded', retryable: false });
      expect(String(failed.data.reason)).toMatch(pattern);
      const dead = await eventually(async () =>
        (await world.broker.getAll(deadLetterQueueName(Queue.DocumentService))).find(
          (m) => JSON.parse(m.content.toString()).id === event.id,
        ),
      );
      expect(dead.properties.headers?.['x-dead-letter-reasons']).toMatch(pattern);
      return event;
    };

    it('a file larger than the cap, by its declared size, its Content-Length, or its bytes', async () => {
      const { candidateId, externalIds } = await candidateInAts();
      const big = randomBytes(MAX_DOCUMENT_BYTES + 1);
      await refused(
        document(candidateId, 'cv', { content: big }),
        /more than the 64 KiB|more than the 65536 bytes/,
      );
      await refused(
        document(candidateId, 'cv', { content: big, sizeBytes: 1000 }),
        /more than the 65536 bytes/,
      );
      await refused(
        document(candidateId, 'cv', { content: big, sizeBytes: 1000, chunked: true }),
        /larger than the 65536 bytes allowed/,
      );
      noFilesAnywhere(externalIds);
    });

    it('a checksum mismatch', async () => {
      const { candidateId, externalIds } = await candidateInAts();
      await refused(document(candidateId, 'cv', { sha256: 'f'.repeat(64) }), /checksum mismatch/);
      noFilesAnywhere(externalIds);
    });

    it('an SVG named as a PDF, by its bytes, and without the file name (it names the candidate)', async () => {
      const { candidateId, externalIds } = await candidateInAts();
      const svg = Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>',
      );
      const event = await refused(
        document(candidateId, 'cv', { fileName: 'Ada Lovelace CV.pdf', content: svg }),
        /the \.pdf document is refused: its bytes are an SVG image .*not a PDF document/,
      );
      const failed = await eventFor(RoutingKey.OperationFailed, event.id);
      expect(JSON.stringify(failed)).not.toMatch(/Lovelace/);
      noFilesAnywhere(externalIds);
    });

    it('a URL into a network the service may not reach (it runs with ALLOW_PRIVATE_ADDRESSES=loopback)', async () => {
      const { candidateId, externalIds } = await candidateInAts();
      const served = document(candidateId, 'cv');
      // The file server's own port, on a private address and on the cloud metadata address.
      const port = new URL(served.url).port;
      await refused(
        { ...served, url: `http://10.255.255.1:${port}/cv.pdf` },
        /document URL refused: .*a private address/,
      );
      await refused(
        { ...served, url: 'http://169.254.169.254/latest/meta-data/' },
        /document URL refused: .*a metadata address/,
      );
      noFilesAnywhere(externalIds);
    });
  });

  // Per ATS: its Smart CV option, its file types, its faults.
  describe('ats-b only', () => {
    const atsB = () => (world.sandbox('ats-b').running as RunningAtsBSandbox).state;
    const others = DOCUMENT_TYPES.filter((type) => type !== 'ats-b');

    it('uploads a Smart CV to ATS-B when the connector sends Smart CVs', async () => {
      const { candidateId, externalIds } = await candidateInAts(ACCOUNT_SMART);
      const smartCv = publish(RoutingKey.DocumentUploaded, document(candidateId, 'smart-cv'), ACCOUNT_SMART);
      await eventFor(RoutingKey.DocumentSynced, smartCv.id, { connectorId: smart.id, action: 'uploaded' });
      expect(atsB().filesOf(Number(externalIds[smart.id]))).toEqual([
        expect.objectContaining({ type: 'Smart CV' }),
      ]);
    });

    it('keeps one file when ATS-B applies the upload and then times out', async () => {
      const { candidateId, externalIds } = await candidateInAts();
      atsB().setFaults({ timeoutAfterWrite: { 'PUT file/Candidate': 1 }, timeoutMs: 3_000 });
      try {
        const cv = publish(RoutingKey.DocumentUploaded, document(candidateId, 'cv'));
        const synced = await eventFor(RoutingKey.DocumentSynced, cv.id, {
          connectorId: idOf('ats-b'),
          action: 'uploaded',
        });
        expect(filesIn('ats-b', externalIds)).toEqual([
          expect.objectContaining({ externalId: synced.data.externalId }),
        ]);
        // The account's other ATSs took it too.
        for (const type of others) {
          await eventFor(RoutingKey.DocumentSynced, cv.id, { connectorId: idOf(type) });
          expect(filesIn(type, externalIds)).toHaveLength(1);
        }
        // The first try timed out after ATS-B stored the file; the retry found it in the candidate's files.
        expect(documentService().output.some((l) => l.includes(cv.id) && l.includes('retry in'))).toBe(true);
        expect(
          Object.entries(atsB().callCounts()).some(([k, n]) => k.includes('fileAttachments') && n > 0),
        ).toBe(true);
      } finally {
        atsB().clearFaults();
      }
    }, 60_000);

    it('keeps one file when the same file comes again as another document while an upload of it is unsure', async () => {
      const { candidateId, externalIds } = await candidateInAts();
      const content = Buffer.from(`%PDF-1.7 the same CV ${randomUUID()}`);
      atsB().setFaults({ timeoutAfterWrite: { 'PUT file/Candidate': 1 }, timeoutMs: 3_000 });
      try {
        const first = publish(RoutingKey.DocumentUploaded, document(candidateId, 'cv', { content }));
        await eventually(() =>
          documentService().output.some((l) => l.includes(first.id) && l.includes('retry in')),
        );
        atsB().clearFaults();
        // The platform sends the same file again under a new document id: its upload went out as the first's.
        const again = publish(RoutingKey.DocumentUploaded, document(candidateId, 'cv', { content }));
        const synced = await eventFor(RoutingKey.DocumentSynced, again.id, { connectorId: idOf('ats-b') });
        expect(atsB().filesOf(Number(externalIds[idOf('ats-b')]))).toEqual([
          expect.objectContaining({ id: Number(synced.data.externalId), externalID: first.data.documentId }),
        ]);
        await eventFor(RoutingKey.DocumentSynced, first.id, {
          connectorId: idOf('ats-b'),
          action: 'uploaded',
        });
        expect(filesIn('ats-b', externalIds)).toHaveLength(1);
      } finally {
        atsB().clearFaults();
      }
    }, 50_000);

    it('refuses a file type the ATS refuses', async () => {
      const { candidateId, externalIds } = await candidateInAts(ACCOUNT_SMART);
      const event = publish(
        RoutingKey.DocumentUploaded,
        document(candidateId, 'other', { fileName: 'install.exe' }),
        ACCOUNT_SMART,
      );
      const failed = await eventFor(RoutingKey.OperationFailed, event.id);
      expect(failed.data).toMatchObject({ sourceType: 'document.uploaded', retryable: false });
      expect(String(failed.data.reason)).toMatch(/ATS-B refuses \.exe files/);
      const dead = await eventually(async () =>
        (await world.broker.getAll(deadLetterQueueName(Queue.DocumentService))).find(
          (m) => JSON.parse(m.content.toString()).id === event.id,
        ),
      );
      expect(dead.properties.headers?.['x-dead-letter-reasons']).toMatch(/ATS-B refuses \.exe files/);
      expect(failed.data.connectorId).toBe(smart.id);
      expect(atsB().filesOf(Number(externalIds[smart.id]))).toEqual([]);
    });
  });
});

/** Checks of one vendor's own file record (its kinds and types, its words), inside the generic tests. */
interface WireChecks {
  cv?(running: unknown, documentId: string, externalId: unknown): void;
  general?(running: unknown, candidateExternalId: string): void;
  smartCvSkipped?(reason: string): void;
}

const wireChecks: Record<string, WireChecks> = {
  'ats-a': {
    cv(running, _documentId, externalId) {
      const file = (running as RunningAtsASandbox).state.files().find((f) => String(f.FileId) === externalId);
      expect(file).toMatchObject({ kind: 'cv', FileTypeId: 2 });
    },
    general(running, candidateExternalId) {
      const mine = (running as RunningAtsASandbox).state
        .files()
        .filter((f) => String(f.CandidateId) === candidateExternalId);
      expect(mine).toEqual([expect.objectContaining({ kind: 'file', FileTypeId: 3 })]);
    },
    smartCvSkipped: (reason) => expect(reason).toBe('ATS-A does not take Smart CVs'),
  },
  'ats-b': {
    cv(running, documentId, externalId) {
      const file = (running as RunningAtsBSandbox).state.files().find((f) => String(f.id) === externalId);
      expect(file).toMatchObject({ type: 'Resume', externalID: documentId });
    },
    general(running, candidateExternalId) {
      expect((running as RunningAtsBSandbox).state.filesOf(Number(candidateExternalId))).toEqual([
        expect.objectContaining({ type: 'Other', name: 'cover.docx' }),
      ]);
    },
    smartCvSkipped: (reason) => expect(reason).toMatch(/Send Smart CV.*off/),
  },
};
