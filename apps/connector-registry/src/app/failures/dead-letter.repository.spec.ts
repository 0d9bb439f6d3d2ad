import { identifier, storable } from './dead-letter.repository';

describe(storable.name, () => {
  it('replaces the NUL character Postgres text and jsonb refuse, and keeps everything else', () => {
    expect(storable('body is not JSON: Unexpected token \u0000 in "\u0000ab"')).toBe(
      'body is not JSON: Unexpected token \uFFFD in "\uFFFDab"',
    );
    expect(storable('Ünïcödé ✓ \u0001')).toBe('Ünïcödé ✓ \u0001');
    expect(storable(undefined)).toBeNull();
  });
});

describe(identifier.name, () => {
  it('keeps an id that can be one and drops one no index could hold', () => {
    expect(identifier('cand-1\u0000')).toBe('cand-1\uFFFD');
    expect(identifier('x'.repeat(500))).toBe('x'.repeat(500));
    expect(identifier('x'.repeat(10_000))).toBeNull();
    expect(identifier(undefined)).toBeNull();
  });
});
