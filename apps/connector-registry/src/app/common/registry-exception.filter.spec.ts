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
import { createValidationPipe } from './validation';

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

  it('hides anything unexpected behind a generic 500', () => {
    const body = sut.toBody(new Error('password=hunter2 at db.ts:12'));
    expect(body).toEqual({ statusCode: 500, code: 'INTERNAL', message: expect.any(String) });
    expect(JSON.stringify(body)).not.toMatch(/hunter2|db\.ts/);
  });

  it('lists each invalid or unknown field of a body as VALIDATION_FAILED', async () => {
    const pipe: ValidationPipe = createValidationPipe();
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

  it('writes the body as the response', () => {
    const json = jest.fn();
    const response = { headersSent: false, status: jest.fn(() => ({ json })) };
    const host = { switchToHttp: () => ({ getResponse: () => response }) } as unknown as ArgumentsHost;
    sut.catch(RegistryException.notFound(), host);
    expect(response.status).toHaveBeenCalledWith(404);
    expect(json).toHaveBeenCalledWith({ statusCode: 404, code: 'NOT_FOUND', message: 'connector not found' });
  });
});
