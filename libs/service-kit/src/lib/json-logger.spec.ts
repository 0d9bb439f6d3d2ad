import { Writable } from 'node:stream';
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
});
