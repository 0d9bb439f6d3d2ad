import { redactBody, redactText } from './redact';

describe(redactText.name, () => {
  it.each([
    ['Authorization: Bearer eyJhbGciOi.abc-123', 'Authorization: Bearer [REDACTED]'],
    [
      'POST /oauth/token?grant_type=refresh_token&refresh_token=r-123&client_secret=s3',
      'POST /oauth/token?grant_type=refresh_token&refresh_token=[REDACTED]&client_secret=[REDACTED]',
    ],
    ['/login?version=*&access_token=tok', '/login?version=*&access_token=[REDACTED]'],
    ['{"clientSecret":"hunter2","name":"x"}', '{"clientSecret":"[REDACTED]","name":"x"}'],
    ['{"clientSecret":{"v":1,"kid":"k1","data":"QUJD"},"n":1', '{"clientSecret":"[REDACTED]","n":1'],
    ['amqp://guest:guest@127.0.0.1:5672', 'amqp://guest:[REDACTED]@127.0.0.1:5672'],
    ['callback?code=abc&state=xyz', 'callback?code=[REDACTED]&state=xyz'],
  ])('scrubs %s', (input, expected) => {
    expect(redactText(input)).toBe(expected);
  });

  it('leaves ordinary text alone', () => {
    expect(redactText('synced 12 vacancies for connector c-1')).toBe('synced 12 vacancies for connector c-1');
  });
});

describe(redactBody.name, () => {
  it('replaces secret fields at any depth and says so', () => {
    const body = Buffer.from(
      JSON.stringify({
        type: 'x',
        data: { config: { clientId: 'c', clientSecret: 's3cr3t' }, list: [{ password: 'p' }] },
      }),
    );
    const { body: out, redacted } = redactBody(body);
    expect(redacted).toBe(true);
    expect(out.toString()).not.toMatch(/s3cr3t|"p"/);
    expect(JSON.parse(out.toString())).toEqual({
      type: 'x',
      data: { config: { clientId: 'c', clientSecret: '[REDACTED]' }, list: [{ password: '[REDACTED]' }] },
    });
  });

  it('replaces a sealed secret field whole (a request sealed with REQUEST_SEAL_KEYS)', () => {
    const sealed = { v: 1, kid: 'k1', iv: 'aXY=', tag: 'dGFn', data: 'ZGF0YQ==' };
    const body = Buffer.from(JSON.stringify({ data: { config: { clientId: 'c', clientSecret: sealed } } }));
    const { body: out, redacted } = redactBody(body);
    expect(redacted).toBe(true);
    expect(JSON.parse(out.toString())).toEqual({
      data: { config: { clientId: 'c', clientSecret: '[REDACTED]' } },
    });
  });

  it('leaves a body without secrets as it is (an error `code` is no secret)', () => {
    const body = Buffer.from('{"data":{"warnings":[{"code":"W","message":"m"}]}}');
    expect(redactBody(body)).toEqual({ body, redacted: false });
  });

  it('scrubs a body that is not JSON as text', () => {
    const { body, redacted } = redactBody(Buffer.from('{"clientSecret":"s3cr3t", broken'));
    expect(redacted).toBe(true);
    expect(body.toString()).not.toContain('s3cr3t');
  });

  it('scrubs a body nested deeper than it walks as text, without overflowing the stack', () => {
    const deep = `${'['.repeat(200_000)}{"clientSecret":"s3cr3t"}${']'.repeat(200_000)}`;
    const { body, redacted } = redactBody(Buffer.from(deep));
    expect(redacted).toBe(true);
    expect(body.toString()).not.toContain('s3cr3t');
  });
});
