import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { ConsumeMessage } from 'amqplib';
import { startAtsASandbox, type RunningAtsASandbox } from '@connector/ats-a-sandbox';
import { startAtsBSandbox, type RunningAtsBSandbox } from '@connector/ats-b-sandbox';
import {
  type ConnectorSnapshot,
  createEvent,
  type DocumentDataDto,
  Exchange,
  Queue,
  RoutingKey,
} from '@connector/contracts';
import { deadLetterQueueName, RabbitConnection, RpcClient } from '@connector/messaging';
import { connectorSnapshot } from '@connector/ats-testing';
import {
  createSuiteInfrastructure,
  eventsOf,
  eventually,
  type FileServer,
  rabbitUrl,
  startFileServer,
  startService,
  timesHandled,
  type ServiceProcess,
  type TestDatabase,
  TestBroker,
  waitForEvent,
  type SuiteInfrastructure,
} from '@connector/testing';
import {
  authorizeAtsB,
  type ConnectorDirectoryStub,
  startAuthGateway,
  saveAtsACredentials,
  startConnectorDirectoryStub,
} from '@connector/service-stubs';

/**
 * document-service end to end: auth-gateway, candidate-sync and document-service as processes, both ATS
 * sandboxes in-process, the files on a small local HTTP server, real RabbitMQ and Postgres.
 * connector-registry is stood in for by a tiny responder on its two requests.
 */

const ACCOUNT = 'acct_documents'; // ATS-A + ATS-B with "Send Smart CV" off
const ACCOUNT_SMART = 'acct_documents_smart'; // ATS-B with "Send Smart CV" on
const CLIENT_SECRET = `secret-${randomBytes(8).toString('hex')}`;
const MAX_DOCUMENT_BYTES = 64 * 1024;
const connectors = new Map<string, ConnectorSnapshot>();

const snapshot = (
  id: string,
  accountId: string,
  type: 'ats-a' | 'ats-b',
  config: Record<string, unknown>,
  options: Record<string, unknown> = {},
) => connectorSnapshot({ id, accountId, type, config, options });

const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex');

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

describe('document-service', () => {
  let database: TestDatabase;
  let atsA: RunningAtsASandbox;
  let atsB: RunningAtsBSandbox;
  let registry: ConnectorDirectoryStub;
  let connection: RabbitConnection;
  let rpc: RpcClient;
  let broker: TestBroker;
  let out: ConsumeMessage[];
  let files: FileServer;
  const processes: ServiceProcess[] = [];
  let documentService: ServiceProcess;
  const atsAId = `conn-a-${randomUUID().slice(0, 8)}`;
  const atsBId = `conn-b-${randomUUID().slice(0, 8)}`;
  const smartId = `conn-b-smart-${randomUUID().slice(0, 8)}`;

  const publish = <T extends object>(type: string, data: T, accountId = ACCOUNT) => {
    const event = createEvent(type, accountId, data);
    broker.publish(Exchange.PlatformEvents, type, event);
    return event;
  };
  const events = (type: string) => eventsOf(out, type);
  const eventFor = (type: string, sourceId: string, match: Record<string, unknown> = {}) =>
    waitForEvent(() => out, type, sourceId, match);
  /** A candidate in the account's ATSs, as candidate-sync puts it there. */
  const candidateInAts = async (accountId = ACCOUNT) => {
    const id = randomUUID().slice(0, 8);
    const data = {
      candidateId: `cand-${id}`,
      firstName: 'Grace',
      lastName: 'Hopper',
      email: `grace.${id}@example.com`,
    };
    const created = publish(RoutingKey.CandidateCreated, data, accountId);
    const ids = [...connectors.values()].filter((c) => c.accountId === accountId).map((c) => c.id);
    const synced = await Promise.all(
      ids.map((connectorId) => eventFor(RoutingKey.CandidateSynced, created.id, { connectorId })),
    );
    const externalIds = Object.fromEntries(
      synced.map((e) => [e.data.connectorId, Number(e.data.externalId)]),
    );
    return { candidateId: data.candidateId, externalIds };
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
  const filesInA = (candidateExternalId: number) =>
    atsA.state.files().filter((f) => f.CandidateId === candidateExternalId);
  const filesInB = (candidateExternalId: number) =>
    atsB.state.files().filter((f) => f.candidateId === candidateExternalId);

  let infra: SuiteInfrastructure;

  beforeAll(async () => {
    // A RabbitMQ vhost of its own: no other suite's or developer's services take this suite's messages.
    infra = await createSuiteInfrastructure('e2e_documents');
    ({ database } = infra);
    atsA = await startAtsASandbox({
      clients: [{ clientId: 'demo-client', clientSecret: CLIENT_SECRET }],
      seed: { vacancies: 5 },
      dailyLimit: 1_000_000,
    });
    atsB = await startAtsBSandbox({});
    files = await startFileServer();

    broker = await TestBroker.connect();
    await broker.deleteQueuesIfPresent([
      Queue.ConnectorRegistry,
      Queue.CandidateSync,
      Queue.DocumentService,
      deadLetterQueueName(Queue.DocumentService),
      Queue.AuthGateway,
    ]);
    out = await broker.tap(Exchange.ConnectorEvents, '#');
    registry = await startConnectorDirectoryStub(connectors);

    processes.push(await startAuthGateway(atsB, { DATABASE_URL: database.url, RABBITMQ_URL: rabbitUrl() }));
    connection = new RabbitConnection({ url: rabbitUrl(), name: 'e2e-documents' });
    rpc = new RpcClient(connection, 'connector-registry');

    await saveAtsACredentials(rpc, ACCOUNT, atsAId, {
      baseUrl: atsA.url,
      clientId: 'demo-client',
      clientSecret: CLIENT_SECRET,
    });
    connectors.set(
      atsAId,
      snapshot(atsAId, ACCOUNT, 'ats-a', { baseUrl: atsA.url, clientId: 'demo-client' }),
    );
    for (const [connectorId, accountId, sendSmartCv] of [
      [atsBId, ACCOUNT, false],
      [smartId, ACCOUNT_SMART, true],
    ] as const) {
      await authorizeAtsB(rpc, accountId, connectorId);
      connectors.set(
        connectorId,
        snapshot(connectorId, accountId, 'ats-b', { routine: 'api-oauth' }, { sendSmartCv }),
      );
    }

    const env = {
      DATABASE_URL: database.url,
      RABBITMQ_URL: rabbitUrl(),
      RETRY_DELAYS_MS: '300,600,1000,2000,3000,5000',
      ATS_TIMEOUT_MS: '1500',
    };
    // Started first, so its queue is bound to candidate.synced before any candidate is synced.
    documentService = await startService('document-service', {
      ...env,
      MAX_DOCUMENT_BYTES: String(MAX_DOCUMENT_BYTES),
      LOG_LEVEL: 'debug',
    });
    processes.push(documentService, await startService('candidate-sync', env));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await rpc?.close();
    await connection?.close();
    await registry?.close();
    if (broker) {
      await broker.close();
    }
    await files?.close();
    await atsA?.close();
    await atsB?.close();
    await infra?.drop();
  });

  it('uploads a CV to both ATSs once, whatever the redeliveries and re-sends of the same file', async () => {
    const { candidateId, externalIds } = await candidateInAts();
    const cv = document(candidateId, 'cv');
    const uploaded = publish(RoutingKey.DocumentUploaded, cv);
    broker.publish(Exchange.PlatformEvents, uploaded.type, uploaded); // redelivered
    const [inA, inB] = await Promise.all([
      eventFor(RoutingKey.DocumentSynced, uploaded.id, { connectorId: atsAId }),
      eventFor(RoutingKey.DocumentSynced, uploaded.id, { connectorId: atsBId }),
    ]);
    expect(inA.data).toMatchObject({ documentId: cv.documentId, candidateId, action: 'uploaded' });
    expect(inB.data).toMatchObject({ documentId: cv.documentId, candidateId, action: 'uploaded' });
    expect(filesInA(externalIds[atsAId])).toEqual([
      expect.objectContaining({
        kind: 'cv',
        FileTypeId: 2,
        fileName: 'cv.pdf',
        sha256: cv.sha256,
        FileId: Number(inA.data.externalId),
      }),
    ]);
    expect(filesInB(externalIds[atsBId])).toEqual([
      expect.objectContaining({
        type: 'Resume',
        externalID: cv.documentId,
        sha256: cv.sha256,
        id: Number(inB.data.externalId),
      }),
    ]);

    // The same file again under another document id: not attached twice, and said so.
    const again = publish(RoutingKey.DocumentUploaded, {
      ...cv,
      documentId: `doc-${randomUUID().slice(0, 8)}`,
    });
    const skipped = await eventFor(RoutingKey.DocumentSynced, again.id, { connectorId: atsAId });
    expect(skipped.data).toMatchObject({
      action: 'skipped',
      reason: expect.stringMatching(/already attached/),
    });
    await eventFor(RoutingKey.DocumentSynced, again.id, { connectorId: atsBId });
    await eventually(() => timesHandled([documentService], uploaded.type, uploaded.id) === 2);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(filesInA(externalIds[atsAId])).toHaveLength(1);
    expect(filesInB(externalIds[atsBId])).toHaveLength(1);
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
    await eventFor(RoutingKey.DocumentSynced, other.id, { connectorId: atsAId, action: 'uploaded' });
    await eventFor(RoutingKey.DocumentSynced, other.id, { connectorId: atsBId, action: 'uploaded' });
    expect(filesInA(externalIds[atsAId])).toEqual([expect.objectContaining({ kind: 'file', FileTypeId: 3 })]);
    expect(filesInB(externalIds[atsBId])).toEqual([
      expect.objectContaining({ type: 'Other', name: 'cover.docx' }),
    ]);

    const smart = publish(RoutingKey.DocumentUploaded, document(candidateId, 'smart-cv'));
    const [skippedA, skippedB] = await Promise.all([
      eventFor(RoutingKey.DocumentSynced, smart.id, { connectorId: atsAId }),
      eventFor(RoutingKey.DocumentSynced, smart.id, { connectorId: atsBId }),
    ]);
    expect(skippedA.data).toMatchObject({ action: 'skipped', reason: 'ATS-A does not take Smart CVs' });
    expect(skippedB.data).toMatchObject({
      action: 'skipped',
      reason: expect.stringMatching(/Send Smart CV.*off/),
    });
    expect(filesInA(externalIds[atsAId])).toHaveLength(1);
    expect(filesInB(externalIds[atsBId])).toHaveLength(1);
  });

  it('uploads a Smart CV to ATS-B when the connector sends Smart CVs', async () => {
    const { candidateId, externalIds } = await candidateInAts(ACCOUNT_SMART);
    const smart = publish(RoutingKey.DocumentUploaded, document(candidateId, 'smart-cv'), ACCOUNT_SMART);
    await eventFor(RoutingKey.DocumentSynced, smart.id, { connectorId: smartId, action: 'uploaded' });
    expect(filesInB(externalIds[smartId])).toEqual([expect.objectContaining({ type: 'Smart CV' })]);
  });

  it('lets a document wait for its candidate, then uploads it', async () => {
    const candidateId = `cand-${randomUUID().slice(0, 8)}`;
    const early = publish(RoutingKey.DocumentUploaded, document(candidateId, 'cv'));
    await eventually(() =>
      documentService.output.some((l) => l.includes(early.id) && l.includes('retry in')),
    );
    publish(RoutingKey.CandidateCreated, {
      candidateId,
      firstName: 'Katherine',
      lastName: 'Johnson',
      email: `${candidateId}@example.com`,
    });
    await eventFor(RoutingKey.DocumentSynced, early.id, { connectorId: atsAId, action: 'uploaded' });
    await eventFor(RoutingKey.DocumentSynced, early.id, { connectorId: atsBId, action: 'uploaded' });
    expect(events(RoutingKey.OperationFailed).filter((e) => e.data.sourceEventId === early.id)).toEqual([]);
  });

  it('keeps one file when ATS-B applies the upload and then times out', async () => {
    const { candidateId, externalIds } = await candidateInAts();
    atsB.state.setFaults({ timeoutAfterWrite: { 'PUT file/Candidate': 1 }, timeoutMs: 3_000 });
    try {
      const cv = publish(RoutingKey.DocumentUploaded, document(candidateId, 'cv'));
      const synced = await eventFor(RoutingKey.DocumentSynced, cv.id, {
        connectorId: atsBId,
        action: 'uploaded',
      });
      expect(filesInB(externalIds[atsBId])).toEqual([
        expect.objectContaining({ id: Number(synced.data.externalId) }),
      ]);
      expect(filesInA(externalIds[atsAId])).toHaveLength(1);
      // The first try timed out after ATS-B stored the file; the retry found it in the candidate's files.
      expect(documentService.output.some((l) => l.includes(cv.id) && l.includes('retry in'))).toBe(true);
      expect(
        Object.entries(atsB.state.callCounts()).some(([k, n]) => k.includes('fileAttachments') && n > 0),
      ).toBe(true);
    } finally {
      atsB.state.clearFaults();
    }
  }, 60_000);

  it('keeps one file when the same file comes again as another document while an upload of it is unsure', async () => {
    const { candidateId, externalIds } = await candidateInAts();
    const content = Buffer.from(`%PDF-1.7 the same CV ${randomUUID()}`);
    atsB.state.setFaults({ timeoutAfterWrite: { 'PUT file/Candidate': 1 }, timeoutMs: 3_000 });
    try {
      const first = publish(RoutingKey.DocumentUploaded, document(candidateId, 'cv', { content }));
      await eventually(() =>
        documentService.output.some((l) => l.includes(first.id) && l.includes('retry in')),
      );
      atsB.state.clearFaults();
      // The platform sends the same file again under a new document id: its upload went out as the first's.
      const again = publish(RoutingKey.DocumentUploaded, document(candidateId, 'cv', { content }));
      const synced = await eventFor(RoutingKey.DocumentSynced, again.id, { connectorId: atsBId });
      expect(filesInB(externalIds[atsBId])).toEqual([
        expect.objectContaining({ id: Number(synced.data.externalId), externalID: first.data.documentId }),
      ]);
      await eventFor(RoutingKey.DocumentSynced, first.id, { connectorId: atsBId, action: 'uploaded' });
      expect(filesInB(externalIds[atsBId])).toHaveLength(1);
    } finally {
      atsB.state.clearFaults();
    }
  }, 50_000);

  it('cleans file names of control characters and paths before any ATS sees them', async () => {
    const { candidateId, externalIds } = await candidateInAts();
    const event = publish(
      RoutingKey.DocumentUploaded,
      document(candidateId, 'cv', { fileName: '..\\evil\u0007/cv\r\n.pdf' }),
    );
    await eventFor(RoutingKey.DocumentSynced, event.id, { connectorId: atsBId, action: 'uploaded' });
    await eventFor(RoutingKey.DocumentSynced, event.id, { connectorId: atsAId, action: 'uploaded' });
    expect(filesInB(externalIds[atsBId]).map((f) => f.name)).toEqual(['_evil_cv.pdf']);
  });

  describe('refuses with a clear reason and uploads nothing', () => {
    const refused = async (data: DocumentDataDto, pattern: RegExp, accountId = ACCOUNT) => {
      const event = publish(RoutingKey.DocumentUploaded, data, accountId);
      const failed = await eventFor(RoutingKey.OperationFailed, event.id);
      expect(failed.data).toMatchObject({ sourceType: 'document.uploaded', retryable: false });
      expect(String(failed.data.reason)).toMatch(pattern);
      const dead = await eventually(async () =>
        (await broker.getAll(deadLetterQueueName(Queue.DocumentService))).find(
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
      expect(filesInA(externalIds[atsAId])).toEqual([]);
      expect(filesInB(externalIds[atsBId])).toEqual([]);
    });

    it('a checksum mismatch', async () => {
      const { candidateId, externalIds } = await candidateInAts();
      await refused(document(candidateId, 'cv', { sha256: 'f'.repeat(64) }), /checksum mismatch/);
      expect(filesInA(externalIds[atsAId])).toEqual([]);
      expect(filesInB(externalIds[atsBId])).toEqual([]);
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
      expect(filesInA(externalIds[atsAId])).toEqual([]);
      expect(filesInB(externalIds[atsBId])).toEqual([]);
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
      expect(filesInA(externalIds[atsAId])).toEqual([]);
      expect(filesInB(externalIds[atsBId])).toEqual([]);
    });

    it('a file type the ATS refuses', async () => {
      const { candidateId, externalIds } = await candidateInAts(ACCOUNT_SMART);
      const event = await refused(
        document(candidateId, 'other', { fileName: 'install.exe' }),
        /ATS-B refuses \.exe files/,
        ACCOUNT_SMART,
      );
      const failed = await eventFor(RoutingKey.OperationFailed, event.id);
      expect(failed.data.connectorId).toBe(smartId);
      expect(filesInB(externalIds[smartId])).toEqual([]);
    });
  });
});
