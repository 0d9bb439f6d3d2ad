import { Writable } from 'node:stream';
import { withLogContext } from '@connector/observability';
import { createPinoLogger, JsonLogger } from './json-logger';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: new JsonLogger(createPinoLogger('test-service', 'debug', stream)) };
}

describe(JsonLogger.name, () => {
  it('writes JSON with level, service and context', () => {
    const { lines, logger } = capture();
    logger.log('started', 'Bootstrap');
    expect(lines[0]).toMatchObject({
      level: 'info',
      service: 'test-service',
      context: 'Bootstrap',
      msg: 'started',
    });
  });

  it('redacts secrets in objects and in messages', () => {
    const { lines, logger } = capture();
    logger.warn({ msg: 'token', config: { clientSecret: 'hunter2', clientId: 'id-1' } });
    logger.error('refresh failed for /token?refresh_token=abc123&client_id=x', 'Auth');
    logger.error(new Error('login failed: Bearer abc.def'));
    const text = JSON.stringify(lines);
    expect(text).not.toMatch(/hunter2|abc123|abc\.def/);
    expect(lines[0]).toMatchObject({ config: { clientSecret: '[REDACTED]', clientId: 'id-1' } });
  });

  it("carries the handled message's ids as fields, and nothing of it after", async () => {
    const { lines, logger } = capture();
    await withLogContext(
      { correlationId: 'corr-1', messageId: 'm-1', eventType: 'candidate.created', accountId: 'acct_1' },
      async () => {
        await Promise.resolve();
        withLogContext({ connectorId: 'conn-1' }, () => logger.log('created in the ATS', 'CandidateSync'));
        logger.warn({ msg: 'token refused', accessToken: 'tok-secret' });
      },
    );
    logger.log('idle');
    expect(lines[0]).toMatchObject({
      msg: 'created in the ATS',
      correlationId: 'corr-1',
      messageId: 'm-1',
      eventType: 'candidate.created',
      accountId: 'acct_1',
      connectorId: 'conn-1',
    });
    expect(lines[1]).toMatchObject({ correlationId: 'corr-1', accessToken: '[REDACTED]' });
    expect(lines[1]).not.toHaveProperty('connectorId');
    expect(lines[2]).not.toHaveProperty('correlationId');
  });
});
