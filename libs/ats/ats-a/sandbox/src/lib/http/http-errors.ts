import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { OAuthError, SandboxError, httpStatusOf } from '../sandbox.error';

/** The one place where failures become HTTP answers: `{"error_message"}` bodies, OAuth `{"error"}` for tokens. */
export function sendError(error: unknown, _request: FastifyRequest, reply: FastifyReply): void {
  if (error instanceof OAuthError) {
    void reply.status(error.status).send({ error: error.code });
    return;
  }
  if (error instanceof SandboxError) {
    void reply.status(httpStatusOf(error.code)).send({ error_message: error.message });
    return;
  }
  // Fastify's own errors (bad JSON, body too large, unsupported media type) carry their status.
  const status = (error as Partial<FastifyError>).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    void reply.status(status).send({ error_message: (error as Error).message });
    return;
  }
  reply.log.error({ err: error }, 'ATS-A sandbox internal error');
  void reply.status(500).send({ error_message: 'An error has occurred.' });
}

export function parseId(raw: string): number {
  // Non-numeric ids cannot exist, so they are unknown ids (404), not validation errors.
  return /^\d{1,15}$/.test(raw) ? Number(raw) : -1;
}
