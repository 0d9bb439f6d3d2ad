import {
  AtsError,
  classifyNetworkFailure,
  classifyResponse,
  parseAtsErrorBody,
  type AtsErrorKind,
} from './ats-error';

const now = new Date('2026-03-01T10:00:00.000Z');

function classify(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  defaultRetryAfterMs = 1000,
) {
  return classifyResponse({
    atsName: 'ATS-X',
    endpoint: 'POST /api/candidates',
    status,
    headers: new Headers(headers),
    body,
    now,
    defaultRetryAfterMs,
  });
}

describe(classifyResponse.name, () => {
  const table: Array<[string, number, unknown, Record<string, string>, AtsErrorKind, string | undefined]> = [
    ['ATS-A token expired', 401, { error_message: 'Invalid or expired token' }, {}, 'auth', undefined],
    ['ATS-A bad client', 401, { error: 'invalid_client' }, {}, 'auth', 'invalid_client'],
    [
      'ATS-B refresh used',
      400,
      { error: 'invalid_grant', error_description: 'used' },
      {},
      'auth',
      'invalid_grant',
    ],
    ['OAuth bad request', 400, { error: 'invalid_request' }, {}, 'permanent', 'invalid_request'],
    [
      'ATS-B session timed out',
      401,
      {
        errorMessage: "Bad 'BhRestToken' or timed-out.",
        errorMessageKey: 'errors.authentication.invalidRestToken',
        errorCode: 401,
      },
      {},
      'auth',
      'errors.authentication.invalidRestToken',
    ],
    [
      'ATS-A missing scope',
      403,
      { error_message: 'This token lacks the scope x' },
      {},
      'forbidden',
      undefined,
    ],
    [
      'ATS-B no rights',
      403,
      { errorMessageKey: 'errors.entitlements.noUpdateRights' },
      {},
      'forbidden',
      'errors.entitlements.noUpdateRights',
    ],
    ['unknown id', 404, { error_message: 'Candidate 1 not found' }, {}, 'not_found', undefined],
    ['validation', 400, { error_message: 'Email is required' }, {}, 'permanent', undefined],
    ['too large', 413, { errorMessageKey: 'errors.file.tooLarge' }, {}, 'permanent', 'errors.file.tooLarge'],
    ['conflict', 409, {}, {}, 'permanent', undefined],
    [
      'no token (ATS-B)',
      412,
      { errorMessageKey: 'errors.authentication.missingRestToken' },
      {},
      'permanent',
      'errors.authentication.missingRestToken',
    ],
    ['request timeout', 408, undefined, {}, 'transient', undefined],
    ['server error', 500, { error_message: 'Internal error' }, {}, 'transient', undefined],
    ['unavailable', 503, '<html>down</html>', {}, 'transient', undefined],
    ['bad gateway', 502, undefined, {}, 'transient', undefined],
    [
      'daily limit',
      429,
      { error_message: 'Daily API limit exceeded' },
      { 'retry-after': '3600' },
      'rate_limited',
      undefined,
    ],
  ];

  it.each(table)('%s: %d → %s', (_name, status, body, headers, kind, code) => {
    const error = classify(status, body, headers);
    expect(error).toBeInstanceOf(AtsError);
    expect(error).toMatchObject({ kind, status, code, ambiguous: false, endpoint: 'POST /api/candidates' });
    expect(error.retryable).toBe(kind === 'transient' || kind === 'rate_limited');
  });

  it('reads retryAt from Retry-After seconds', () => {
    expect(classify(429, {}, { 'retry-after': '1' }).retryAt).toEqual(new Date(now.getTime() + 1000));
  });

  it('reads retryAt from Retry-After as an HTTP date', () => {
    expect(classify(429, {}, { 'retry-after': 'Sun, 01 Mar 2026 11:00:00 GMT' }).retryAt).toEqual(
      new Date('2026-03-01T11:00:00Z'),
    );
  });

  it('falls back to X-RateLimit-Reset in epoch seconds, then to the ATS default', () => {
    expect(classify(429, {}, { 'x-ratelimit-reset': '1772409600' }).retryAt).toEqual(
      new Date(1772409600 * 1000),
    );
    expect(classify(429, {}, { 'x-ratelimit-reset': '30' }).retryAt).toEqual(
      new Date(now.getTime() + 30_000),
    );
    expect(classify(429, {}, {}, 1000).retryAt).toEqual(new Date(now.getTime() + 1000));
  });

  it('has no retryAt unless rate limited', () => {
    expect(classify(503, {}, { 'retry-after': '5' }).retryAt).toBeUndefined();
  });

  it('keeps the ATS message and detail messages, and cuts secrets out of them', () => {
    const error = classifyResponse({
      atsName: 'ATS-B',
      endpoint: 'PUT entity/Candidate',
      status: 400,
      headers: new Headers(),
      body: {
        errorMessage: 'error persisting an entity of type: Candidate',
        errorMessageKey: 'errors.cannotPersistEntity',
        errorCode: 400,
        messages: [
          { detailMessage: 'value too long', propertyName: 'lastName', severity: 'ERROR' },
          { detailMessage: 'token tok-secret-1 is odd', propertyName: 'x' },
        ],
      },
      now,
      defaultRetryAfterMs: 1000,
      secrets: ['tok-secret-1'],
    });
    expect(error.kind).toBe('permanent');
    expect(error.atsMessage).toBe(
      'error persisting an entity of type: Candidate; lastName: value too long; x: token [redacted] is odd',
    );
    expect(error.message).toContain('PUT entity/Candidate answered 400');
    expect(error.message).not.toContain('tok-secret-1');
  });
});

describe('what an ATS error says outside the dead letter', () => {
  it("names the category, the status, the ATS's code and the refused fields, never the ATS's words", () => {
    const atsA = classifyResponse({
      atsName: 'ATS-A',
      endpoint: 'POST /api/candidates',
      status: 400,
      headers: new Headers(),
      body: { error_message: 'Candidate jane.doe@example.com (Jane Doe) already exists' },
      now,
      defaultRetryAfterMs: 1000,
    });
    expect(atsA.message).toBe('ATS-A POST /api/candidates answered 400 (permanent)');
    expect(atsA.atsMessage).toBe('Candidate jane.doe@example.com (Jane Doe) already exists');

    const atsB = classifyResponse({
      atsName: 'ATS-B',
      endpoint: 'PUT file/Candidate/{id}',
      status: 400,
      headers: new Headers(),
      body: {
        errorMessage: "could not store 'Jane Doe CV.pdf'",
        errorMessageKey: 'errors.cannotPersistEntity',
        messages: [
          { detailMessage: "'+44 20 7946 0000 ext. 12345' is too long", propertyName: 'phone' },
          { detailMessage: 'no', propertyName: 'Jane Doe <jane@example.com>' },
        ],
      },
      now,
      defaultRetryAfterMs: 1000,
    });
    expect(atsB.message).toBe(
      'ATS-B PUT file/Candidate/{id} answered 400 (permanent, errors.cannotPersistEntity; fields: phone)',
    );
    expect(atsB.fields).toEqual(['phone']);
    for (const personal of ['Jane', 'jane', '7946', 'CV.pdf']) expect(atsB.message).not.toContain(personal);
  });
});

describe(parseAtsErrorBody.name, () => {
  it.each([
    [{ error_message: 'Bad' }, { atsMessage: 'Bad', code: undefined }],
    [{ error: 'invalid_client' }, { atsMessage: 'invalid_client', code: 'invalid_client' }],
    [
      { error: 'invalid_grant', error_description: 'Refresh token revoked' },
      { atsMessage: 'Refresh token revoked', code: 'invalid_grant' },
    ],
    [
      { errorMessage: 'x', errorMessageKey: 'errors.k', errorCode: 400 },
      { atsMessage: 'x', code: 'errors.k' },
    ],
    [undefined, {}],
    [[1, 2], {}],
  ])('%j', (body, expected) => {
    expect(parseAtsErrorBody(body)).toEqual(expected);
  });
});

describe(classifyNetworkFailure.name, () => {
  const fetchFailed = (code: string) =>
    new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) });
  const timeout = () => new DOMException('The operation was aborted due to timeout', 'TimeoutError');
  const failure = (error: unknown, write: boolean) =>
    classifyNetworkFailure({
      atsName: 'ATS-A',
      endpoint: 'POST /api/candidates',
      error,
      write,
      timeoutMs: 50,
    });

  it.each([
    ['timeout on a read', timeout(), false, 'transient', false],
    ['timeout on a write', timeout(), true, 'transient', true],
    ['connection refused on a write', fetchFailed('ECONNREFUSED'), true, 'unreachable', false],
    ['DNS failure', fetchFailed('ENOTFOUND'), true, 'unreachable', false],
    ['connect timeout', fetchFailed('UND_ERR_CONNECT_TIMEOUT'), true, 'unreachable', false],
    ['reset after sending a write', fetchFailed('ECONNRESET'), true, 'unreachable', true],
    ['socket closed after sending a write', fetchFailed('UND_ERR_SOCKET'), true, 'unreachable', true],
    ['reset on a read', fetchFailed('ECONNRESET'), false, 'unreachable', false],
  ] as const)('%s', (_name, error, write, kind, ambiguous) => {
    const classified = failure(error, write);
    expect(classified).toMatchObject({ kind, ambiguous, status: undefined });
    expect(classified.retryable).toBe(true);
  });

  it("names the ATS's index lag as the wait before an ambiguous write is looked up", () => {
    const unsure = classifyNetworkFailure({
      atsName: 'ATS-A',
      endpoint: 'POST /api/applications',
      error: timeout(),
      write: true,
      timeoutMs: 50,
      indexLagMs: 5_000,
    });
    expect(unsure).toMatchObject({ ambiguous: true, settleMs: 5_000 });
    expect(failure(timeout(), false).settleMs).toBeUndefined();
  });
});
