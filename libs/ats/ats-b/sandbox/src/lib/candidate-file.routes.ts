import type { FastifyInstance } from 'fastify';
import { AtsBError } from './ats-b.error';
import type { NewFile } from './candidate.store';
import { parseFields, projectFields, type FieldSchema } from './field-selection';
import { checkFileName, checkFileSize, decodeBase64, MAX_FILE_BYTES } from './file.validation';
import { answer, parseId, queryOf, type SandboxContext } from './sandbox.context';

const FILE_ATTACHMENT_SCHEMA: FieldSchema = {
  id: true,
  name: true,
  type: true,
  externalID: true,
  fileType: true,
  contentType: true,
  description: true,
  fileSize: true,
  dateAdded: true,
};

/** Base64 of 10 MB plus JSON overhead fits; beyond this fastify itself answers 413. */
const FILE_JSON_BODY_LIMIT = 20 * 1024 * 1024;

/** `PUT file/Candidate/{id}` (JSON, base64), `PUT file/Candidate/{id}/raw` (multipart) and the attachment list. */
export function registerCandidateFileRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const store = ctx.state.candidateStore;
  const fileTypes = ctx.state.options.fileTypes;
  const base = '/rest-services/:corpToken';

  const checkMeta = (meta: {
    externalID?: unknown;
    fileType?: unknown;
    name?: unknown;
    type?: unknown;
  }): void => {
    const missing = (['externalID', 'fileType', 'name'] as const).filter(
      (k) => typeof meta[k] !== 'string' || meta[k] === '',
    );
    if (missing.length > 0) {
      throw AtsBError.badRequest(
        `Missing required file properties: ${missing.join(', ')}`,
        'errors.file.missingProperty',
      );
    }
    checkFileName(meta.name as string);
    if (meta.type !== undefined && meta.type !== null && !fileTypes.includes(meta.type as string)) {
      throw AtsBError.badRequest(
        `Unknown file type '${String(meta.type)}' (allowed: ${fileTypes.join(', ')})`,
        'errors.file.invalidType',
      );
    }
  };

  app.put(
    `${base}/file/Candidate/:id`,
    { bodyLimit: FILE_JSON_BODY_LIMIT, config: { dataCall: true, callKey: 'PUT file/Candidate' } },
    async (request, reply) => {
      const id = parseId((request.params as { id: string }).id, 'Candidate');
      const body = request.body;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw AtsBError.badRequest('The request body must be a JSON object', 'errors.malformedRequest');
      }
      const b = body as Record<string, unknown>;
      const known = [
        'externalID',
        'fileContent',
        'fileType',
        'name',
        'contentType',
        'description',
        'type',
        'fileExtension',
      ];
      const unknown = Object.keys(b).filter((k) => !known.includes(k));
      if (unknown.length > 0)
        throw AtsBError.badRequest(
          `Unknown file properties: ${unknown.join(', ')}`,
          'errors.file.invalidProperty',
        );
      if (typeof b['fileContent'] !== 'string' || b['fileContent'] === '') {
        throw AtsBError.badRequest(
          'Missing required file properties: fileContent',
          'errors.file.missingProperty',
        );
      }
      checkMeta(b);
      store.require(id);
      const content = decodeBase64(b['fileContent']);
      checkFileSize(content.length);
      const file = store.addFile(id, {
        externalID: b['externalID'] as string,
        fileType: b['fileType'] as string,
        name: b['name'] as string,
        contentType: optionalString(b['contentType']),
        description: optionalString(b['description']),
        type: optionalString(b['type']),
        content,
        via: 'json',
      });
      return answer(ctx, request, reply, 200, { fileId: file.id });
    },
  );

  app.put(
    `${base}/file/Candidate/:id/raw`,
    { config: { dataCall: true, callKey: 'PUT file/Candidate/raw' } },
    async (request, reply) => {
      const id = parseId((request.params as { id: string }).id, 'Candidate');
      const q = queryOf(request);
      if (!request.isMultipart())
        throw AtsBError.badRequest(
          'Expected multipart/form-data with a part named file',
          'errors.file.notMultipart',
        );
      store.require(id);
      let part;
      try {
        // One byte over the limit so an oversized file is seen as such rather than silently cut.
        part = await request.file({ limits: { fileSize: MAX_FILE_BYTES + 1, files: 1 } });
      } catch (err) {
        throw AtsBError.badRequest(
          `Malformed multipart body: ${(err as Error).message}`,
          'errors.file.malformedMultipart',
        );
      }
      if (!part || part.fieldname !== 'file')
        throw AtsBError.badRequest('Missing multipart part named file', 'errors.file.missingProperty');
      let content: Buffer;
      try {
        content = await part.toBuffer();
      } catch (err) {
        if ((err as { statusCode?: number }).statusCode === 413) checkFileSize(MAX_FILE_BYTES + 1);
        throw err;
      }
      if (part.file.truncated) checkFileSize(MAX_FILE_BYTES + 1);
      const meta = {
        externalID: q['externalID'],
        fileType: q['fileType'],
        name: q['name'] ?? part.filename,
        type: q['type'],
      };
      checkMeta(meta);
      checkFileSize(content.length);
      const file: NewFile = {
        externalID: meta.externalID as string,
        fileType: meta.fileType as string,
        name: meta.name,
        contentType: q['contentType'] ?? part.mimetype ?? null,
        description: q['description'] ?? null,
        type: q['type'] ?? null,
        content,
        via: 'multipart',
      };
      return answer(ctx, request, reply, 200, { fileId: store.addFile(id, file).id });
    },
  );

  app.get(
    `${base}/entity/Candidate/:id/fileAttachments`,
    { config: { dataCall: true, callKey: 'GET entity/Candidate/fileAttachments' } },
    async (request) => {
      const id = parseId((request.params as { id: string }).id, 'Candidate');
      store.require(id);
      const fields = parseFields(queryOf(request)['fields'], 'CandidateFileAttachment');
      return {
        data: store
          .filesOf(id)
          .map((f) => projectFields(f, fields, FILE_ATTACHMENT_SCHEMA, 'CandidateFileAttachment')),
      };
    },
  );
}

function optionalString(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}
