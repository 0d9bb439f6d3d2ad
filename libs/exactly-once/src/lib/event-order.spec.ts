import { orderOf } from './event-order';

const mark = (occurredAt: string, eventId = 'e1', contentHash = 'h1') => ({
  lastOccurredAt: new Date(occurredAt),
  lastEventId: eventId,
  contentHash,
});

describe(orderOf.name, () => {
  const event = (id: string, occurredAt: string) => ({ id, occurredAt });

  it('applies the first event, and any newer one', () => {
    expect(orderOf(event('e1', '2026-01-01T00:00:00.000Z'), 'h1', undefined)).toBe('apply');
    expect(orderOf(event('e2', '2026-01-01T00:00:01.000Z'), 'h1', mark('2026-01-01T00:00:00.000Z'))).toBe(
      'apply',
    );
  });

  it('never lets an older event overwrite a newer state', () => {
    expect(orderOf(event('e0', '2025-12-31T23:59:59.999Z'), 'h0', mark('2026-01-01T00:00:00.000Z'))).toBe(
      'stale',
    );
  });

  it('knows a redelivery of the applied event, and a duplicate with the same time and content', () => {
    expect(orderOf(event('e1', '2026-01-01T00:00:00.000Z'), 'h1', mark('2026-01-01T00:00:00.000Z'))).toBe(
      'replayed',
    );
    expect(orderOf(event('e9', '2026-01-01T00:00:00.000Z'), 'h1', mark('2026-01-01T00:00:00.000Z'))).toBe(
      'duplicate',
    );
    expect(orderOf(event('e9', '2026-01-01T00:00:00.000Z'), 'h2', mark('2026-01-01T00:00:00.000Z'))).toBe(
      'apply',
    );
  });

  it('refuses an event that reuses the applied event id with other content', () => {
    expect(orderOf(event('e1', '2026-01-01T00:00:00.000Z'), 'h2', mark('2026-01-01T00:00:00.000Z'))).toBe(
      'reused',
    );
    expect(orderOf(event('e1', '2026-01-01T00:00:05.000Z'), 'h2', mark('2026-01-01T00:00:00.000Z'))).toBe(
      'reused',
    );
  });

  it('applies when a create was only claimed (nothing applied yet)', () => {
    expect(
      orderOf(event('e1', '2026-01-01T00:00:00.000Z'), 'h1', {
        lastOccurredAt: null,
        lastEventId: null,
        contentHash: null,
      }),
    ).toBe('apply');
  });
});
