import { createHash } from 'node:crypto';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  DROPDOWNS,
  ENDPOINT_SCOPES,
  ERROR_MESSAGES,
  FILE_TYPE_CV,
  FILE_TYPE_GENERAL,
  FILE_TYPES,
  RATE_LIMIT_HEADERS,
  SEARCH_ENTITY_NAMES,
} from '../ats-a.protocol';
import type { AtsASandboxState } from '../ats-a-sandbox.state';
import { endpointKey } from '../faults/fault.injector';
import type { QuotaDecision } from '../quota/quota.meter';
import { notFound, validation, SandboxError, SandboxErrorCode } from '../sandbox.error';
import { parseSearchBody } from '../search/search.engine';
import { parseId } from './http-errors';

export interface ApiRoutesOptions {
  state: AtsASandboxState;
  maxUploadBytes: number;
  /** Connections held open by timeout-after-write faults, destroyed on close. */
  heldConnections: Set<HeldConnection>;
}

export interface HeldConnection {
  socket: Socket;
  timer: NodeJS.Timeout;
}

type IdParams = { Params: { id: string } };

const TOKEN_ENDPOINT = 'POST /api/token';

type QuotaHeaders = Omit<QuotaDecision, 'allowed'>;

function setQuotaHeaders(reply: FastifyReply, quota: QuotaHeaders): void {
  reply.header(RATE_LIMIT_HEADERS.limit, quota.limit);
  reply.header(RATE_LIMIT_HEADERS.remaining, quota.remaining);
  reply.header(RATE_LIMIT_HEADERS.reset, quota.resetEpochSeconds);
}

/** The vendor API under /api. Every call is counted, delayed, metered and authorised in `onRequest`. */
export async function atsAApiRoutes(app: FastifyInstance, options: ApiRoutesOptions): Promise<void> {
  const { state, maxUploadBytes, heldConnections } = options;
  const endpointOf = new Map<string, string>();
  const endpoint = (request: FastifyRequest): string => {
    const raw = `${request.method} ${request.routeOptions.url ?? request.url}`;
    let key = endpointOf.get(raw);
    if (key === undefined) {
      key = endpointKey(raw);
      endpointOf.set(raw, key);
    }
    return key;
  };

  app.addHook('onRequest', async (request, reply) => {
    const key = endpoint(request);
    state.recordCall(key);
    const delay = state.faults.delayMs();
    if (delay > 0) await sleep(delay);

    // choice: every /api call counts against the daily limit, the token call (unless countTokenCalls is
    // off) and failed calls included; only calls refused with 429 do not.
    if (state.faults.force429) {
      state.recordRateLimited(key);
      rateLimited(reply, state.quota());
      return reply;
    }
    // A vendor that says token calls are free (countTokenCalls off): answered with the headers, not counted.
    const quota =
      key === TOKEN_ENDPOINT && !state.countsTokenCalls
        ? { ...state.quotaMeter.snapshot(), allowed: true }
        : state.quotaMeter.consume();
    setQuotaHeaders(reply, quota);
    if (!quota.allowed) {
      state.recordRateLimited(key);
      rateLimited(reply, quota);
      return reply;
    }

    if (key !== TOKEN_ENDPOINT) {
      const auth = state.tokens.check(request.headers.authorization);
      if (!auth.ok) {
        const message = request.headers.authorization
          ? ERROR_MESSAGES.invalidToken
          : ERROR_MESSAGES.missingToken;
        void reply
          .status(401)
          .header('WWW-Authenticate', 'Bearer error="invalid_token"')
          .send({ error_message: message });
        return reply;
      }
      const scope = ENDPOINT_SCOPES[key];
      if (scope && !auth.scopes.has(scope)) {
        void reply.status(403).send({ error_message: `This token lacks the scope ${scope}` });
        return reply;
      }
    }

    if (state.faults.shouldFail(key)) {
      void reply.status(state.faults.errorStatus).send({ error_message: ERROR_MESSAGES.transient });
      return reply;
    }
    return undefined;
  });

  function rateLimited(reply: FastifyReply, quota: QuotaHeaders): void {
    setQuotaHeaders(reply, { ...quota, remaining: 0 });
    void reply
      .status(429)
      .header('Retry-After', quota.retryAfterSeconds)
      .send({ error_message: ERROR_MESSAGES.dailyLimit });
  }

  /** Answers a write, unless a timeout-after-write fault says: keep the effect, hold the line, then drop it. */
  function answerWrite(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    body: object,
  ): FastifyReply {
    if (state.faults.takeTimeoutAfterWrite(endpoint(request))) {
      reply.hijack();
      const socket = request.raw.socket;
      const held: HeldConnection = {
        socket,
        timer: setTimeout(() => socket.destroy(), state.faults.timeoutMs),
      };
      heldConnections.add(held);
      socket.once('close', () => {
        clearTimeout(held.timer);
        heldConnections.delete(held);
      });
      return reply;
    }
    return reply.status(status).send(body);
  }

  app.post('/token', async (request) => state.tokens.issue(request.body));

  for (const entity of SEARCH_ENTITY_NAMES) {
    app.post(`/${entity}/search`, async (request) =>
      state.searchEngine.search(entity, state.source(entity), parseSearchBody(entity, request.body)),
    );
  }

  app.get<IdParams>('/options/dropdown/:id', async (request) => {
    const list = DROPDOWNS[parseId(request.params.id)];
    if (!list) throw notFound(`Dropdown ${request.params.id} not found`);
    return list;
  });

  app.post('/candidates', async (request, reply) => {
    const candidate = state.createCandidate(request.body);
    return answerWrite(request, reply, 201, { CandidateId: candidate.CandidateId });
  });

  app.patch<IdParams>('/candidates/:id', async (request, reply) => {
    const candidate = state.patchCandidate(parseId(request.params.id), request.body);
    return answerWrite(request, reply, 200, { CandidateId: candidate.CandidateId });
  });

  app.post('/applications', async (request, reply) => {
    const application = state.createApplication(request.body);
    return answerWrite(request, reply, 201, { ApplicationId: application.ApplicationId });
  });

  app.patch<IdParams>('/applications/:id', async (request, reply) => {
    const application = state.patchApplication(parseId(request.params.id), request.body);
    return answerWrite(request, reply, 200, { ApplicationId: application.ApplicationId });
  });

  // Size is checked by hand (truncated stream) so the rest of the body is drained and a clean 413 goes out.
  const partsOptions = { limits: { fileSize: maxUploadBytes }, throwFileSizeLimit: false };
  for (const kind of ['cv', 'file'] as const) {
    app.post<IdParams>(`/candidates/:id/upload/${kind}`, async (request, reply) => {
      const candidateId = parseId(request.params.id);
      if (!state.hasCandidate(candidateId)) throw notFound(`Candidate ${request.params.id} not found`);
      if (!request.isMultipart()) throw validation('Expected multipart/form-data with a part named file');

      let received: { fileName: string; contentType: string; sizeBytes: number; sha256: string } | null =
        null;
      let tooLarge = false;
      let fileTypeRaw: string | undefined;
      for await (const part of request.parts(partsOptions)) {
        if (part.type === 'file') {
          const hash = createHash('sha256');
          let size = 0;
          for await (const chunk of part.file) {
            hash.update(chunk as Buffer);
            size += (chunk as Buffer).length;
          }
          if (part.file.truncated) tooLarge = true;
          if (part.fieldname === 'file' && !received) {
            received = {
              fileName: part.filename,
              contentType: part.mimetype,
              sizeBytes: size,
              sha256: hash.digest('hex'),
            };
          }
        } else if (part.fieldname === 'FileTypeId') {
          fileTypeRaw = String(part.value);
        }
      }
      if (tooLarge) {
        throw new SandboxError(
          SandboxErrorCode.PayloadTooLarge,
          `File exceeds the limit of ${maxUploadBytes} bytes`,
        );
      }
      if (!received) throw validation('Missing multipart part named file');
      const fileTypeId =
        fileTypeRaw === undefined ? (kind === 'cv' ? FILE_TYPE_CV : FILE_TYPE_GENERAL) : Number(fileTypeRaw);
      if (!FILE_TYPES.some((t) => t.Id === fileTypeId)) {
        throw validation(`FileTypeId must be one of ${FILE_TYPES.map((t) => t.Id).join(', ')}`);
      }
      const stored = state.storeFile({ CandidateId: candidateId, kind, FileTypeId: fileTypeId, ...received });
      return answerWrite(request, reply, 201, { FileId: stored.FileId });
    });
  }
}
