import { redactText } from './redact';

describe(redactText.name, () => {
  it.each([
    ['Authorization: Bearer eyJhbGciOi.abc-123', 'Authorization: Bearer [REDACTED]'],
    [
      'POST /oauth/token?grant_type=refresh_token&refresh_token=r-123&client_secret=s3',
      'POST /oauth/token?grant_type=refresh_token&refresh_token=[REDACTED]&client_secret=[REDACTED]',
    ],
    ['/login?version=*&access_token=tok', '/login?version=*&access_token=[REDACTED]'],
    ['{"clientSecret":"hunter2","name":"x"}', '{"clientSecret":"[REDACTED]","name":"x"}'],
    ['amqp://guest:guest@127.0.0.1:5672', 'amqp://guest:[REDACTED]@127.0.0.1:5672'],
    ['callback?code=abc&state=xyz', 'callback?code=[REDACTED]&state=xyz'],
  ])('scrubs %s', (input, expected) => {
    expect(redactText(input)).toBe(expected);
  });

  it('leaves ordinary text alone', () => {
    expect(redactText('synced 12 vacancies for connector c-1')).toBe('synced 12 vacancies for connector c-1');
  });
});
