import { atsRegistry } from '@connector/ats-registry';
import {
  type ArgumentsHost,
  BadRequestException,
  NotFoundException,
  PayloadTooLargeException,
} from '@nestjs/common';
import { ValidationPipe } from '@nestjs/common';
import { IsInt, IsString } from 'class-validator';
import { RegistryExceptionFilter } from './registry-exception.filter';
import { httpStatusOf, RegistryErrorCode, RegistryException } from './registry.exception';
import { AtsBOptionsDto } from '@connector/ats-b';
import { createValidationPipe, validateAs } from './validation';

class Body {
  @IsString() name!: string;
  @IsInt() count!: number;
}

describe(RegistryExceptionFilter.name, () => {
  const sut = new RegistryExceptionFilter();

  it('maps every code to an HTTP status', () => {
    for (const code of Object.values(RegistryErrorCode)) {
      expect(httpStatusOf(code)).toBeGreaterThanOrEqual(400);
    }
    expect(httpStatusOf(RegistryErrorCode.AuthFailed)).toBe(422);
    expect(httpStatusOf(RegistryErrorCode.RunInProgress)).toBe(409);
    expect(httpStatusOf(RegistryErrorCode.DependencyUnavailable)).toBe(503);
  });

  it('answers a RegistryException with its code, message and details', () => {
    const error = new RegistryException(RegistryErrorCode.RunInProgress, 'busy', { runId: 'r1' });
    expect(sut.toBody(error)).toEqual({
      statusCode: 409,
      code: 'RUN_IN_PROGRESS',
      message: 'busy',
      details: { runId: 'r1' },
    });
  });

  it("gives Nest's own errors a code", () => {
    expect(sut.toBody(new NotFoundException('Cannot GET /x'))).toEqual({
      statusCode: 404,
      code: 'NOT_FOUND',
      message: 'Cannot GET /x',
    });
    expect(sut.toBody(new BadRequestException('Unexpected token'))).toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    expect(sut.toBody(new PayloadTooLargeException())).toMatchObject({ statusCode: 413 });
  });

  it("gives body-parser's request errors (exposed, 4xx) a code: 413 as PAYLOAD_TOO_LARGE, others as 400", () => {
    const bodyParserError = (statusCode: number, message: string, expose = true) =>
      Object.assign(new Error(message), { statusCode, status: statusCode, expose, type: 'x' });
    expect(sut.toBody(bodyParserError(413, 'request entity too large'))).toEqual({
      statusCode: 413,
      code: 'PAYLOAD_TOO_LARGE',
      message: 'request entity too large',
    });
    for (const [status, message] of [
      [415, 'unsupported content encoding "zstd"'],
      [400, 'incorrect header check'],
      [403, 'invalid signature'],
    ] as const) {
      expect(sut.toBody(bodyParserError(status, message))).toEqual({
        statusCode: 400,
        code: 'VALIDATION_FAILED',
        message,
      });
    }
    // Not exposed, or not a client error: still the generic 500.
    expect(sut.toBody(bodyParserError(400, 'secret', false))).toMatchObject({ statusCode: 500 });
    expect(sut.toBody(bodyParserError(502, 'secret'))).toMatchObject({ statusCode: 500 });
    expect(sut.toBody({ expose: true, statusCode: 400, message: 'not an Error' })).toMatchObject({
      statusCode: 500,
    });
  });

  it('hides anything unexpected behind a generic 500', () => {
    const body = sut.toBody(new Error('password=hunter2 at db.ts:12'));
    expect(body).toEqual({ statusCode: 500, code: 'INTERNAL', message: expect.any(String) });
    expect(JSON.stringify(body)).not.toMatch(/hunter2|db\.ts/);
  });

  it('lists each invalid or unknown field of a body as VALIDATION_FAILED', async () => {
    const pipe: ValidationPipe = createValidationPipe(atsRegistry);
    const error = await pipe
      .transform({ name: 1, count: 2, extra: true }, { type: 'body', metatype: Body })
      .catch((e: unknown) => e);
    expect(sut.toBody(error)).toEqual({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      message: 'Invalid request: extra, name',
      details: {
        fields: [
          { field: 'extra', problems: ['property extra should not exist'] },
          { field: 'name', problems: ['name must be a string'] },
        ],
      },
    });
  });

  it('refuses U+0000 in any string or key of a body, whatever its class, naming where', async () => {
    const pipe: ValidationPipe = createValidationPipe(atsRegistry);
    for (const metatype of [Body, undefined]) {
      const error = await pipe
        .transform(
          { name: 'a\u0000b', count: 1, rows: [{ ok: 'x' }, { 'k\u0000': 'y' }] },
          { type: 'body', metatype },
        )
        .catch((e: unknown) => e);
      expect(sut.toBody(error)).toEqual({
        statusCode: 400,
        code: 'VALIDATION_FAILED',
        message: 'Invalid request: name, rows[1].k\\u0000',
        details: {
          fields: [
            { field: 'name', problems: ['name must not contain the character U+0000 (NUL)'] },
            { field: 'rows[1].k\\u0000', problems: [expect.stringContaining('U+0000')] },
          ],
        },
      });
    }
    // Query strings and path parameters are not bodies: left to their own checks.
    await expect(pipe.transform({ name: 'a\u0000b' }, { type: 'query' })).resolves.toBeDefined();
  });

  it('refuses null for an optional option instead of storing it, with one clear problem', () => {
    for (const option of ['syncIntervalMinutes', 'fullSyncEveryHours', 'sendSmartCv']) {
      let error: unknown;
      try {
        validateAs(AtsBOptionsDto, { [option]: null }, 'options');
      } catch (e) {
        error = e;
      }
      expect(sut.toBody(error)).toMatchObject({
        statusCode: 400,
        code: 'VALIDATION_FAILED',
        details: { fields: [{ field: `options.${option}`, problems: [`${option} must not be null`] }] },
      });
    }
    expect(validateAs(AtsBOptionsDto, { sendSmartCv: true }, 'options')).toMatchObject({ sendSmartCv: true });
  });

  it('takes an empty object as a class with no checks (a set-up form that asks nothing), and nothing else', () => {
    class NothingAsked {}
    expect(validateAs(NothingAsked, {}, 'config')).toBeInstanceOf(NothingAsked);
    expect(() => validateAs(NothingAsked, { routine: 'x' }, 'config')).toThrow(RegistryException);
    expect(() => validateAs(NothingAsked, null, 'config')).toThrow(RegistryException);
  });

  it('writes the body as the response', () => {
    const json = jest.fn();
    const response = { headersSent: false, status: jest.fn(() => ({ json })) };
    const host = { switchToHttp: () => ({ getResponse: () => response }) } as unknown as ArgumentsHost;
    sut.catch(RegistryException.notFound(), host);
    expect(response.status).toHaveBeenCalledWith(404);
    expect(json).toHaveBeenCalledWith({ statusCode: 404, code: 'NOT_FOUND', message: 'connector not found' });
  });
});
