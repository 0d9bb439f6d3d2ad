import { AtsCallSlots } from './ats-call-slots';
import { renewAtOf } from './credentials.service';

describe(AtsCallSlots.name, () => {
  const sut = () => new AtsCallSlots('renewals', { total: 3, perKey: 2, retryAfterMs: 1_000 });
  /** Work that holds its slot until the returned function is called. */
  const hold = (slots: AtsCallSlots, key: string) => {
    let release!: () => void;
    const done = slots.run(key, () => new Promise<void>((resolve) => (release = resolve)));
    return { done, release: () => release() };
  };

  it('refuses a system beyond its own slots at once with BUSY and a jittered wait, another system still served', async () => {
    const slots = sut();
    const held = [hold(slots, 'slow'), hold(slots, 'slow')];
    const refused = slots.run('slow', async () => 'never');
    await expect(refused).rejects.toMatchObject({ code: 'BUSY', retryAfterMs: expect.any(Number) });
    const { retryAfterMs } = (await refused.catch((error: { retryAfterMs: number }) => error)) as {
      retryAfterMs: number;
    };
    expect(retryAfterMs).toBeGreaterThanOrEqual(500);
    expect(retryAfterMs).toBeLessThanOrEqual(1_500);
    await expect(slots.run('other', async () => 'served')).resolves.toBe('served');
    held.forEach((h) => h.release());
    await Promise.all(held.map((h) => h.done));
  });

  it('refuses every system once the global cap is reached, and serves again when a slot is given back', async () => {
    const slots = sut();
    const held = [hold(slots, 'a'), hold(slots, 'b'), hold(slots, 'c')];
    expect(slots.held()).toBe(3);
    await expect(slots.run('d', async () => 'never')).rejects.toMatchObject({ code: 'BUSY' });
    held[0]!.release();
    await held[0]!.done;
    await expect(slots.run('d', async () => 'served')).resolves.toBe('served');
    held.slice(1).forEach((h) => h.release());
    await Promise.all(held.map((h) => h.done));
    expect(slots.held()).toBe(0);
  });

  it("lets a caller that may wait take its key's next free slot, first come first served", async () => {
    const slots = sut();
    const first = hold(slots, 'acct');
    const second = hold(slots, 'acct');
    const waiting = slots.run('acct', async () => 'after the others', 5_000);
    await expect(slots.run('acct', async () => 'never')).rejects.toMatchObject({ code: 'BUSY' });
    first.release();
    await expect(waiting).resolves.toBe('after the others');
    second.release();
    await Promise.all([first.done, second.done]);
  });
});

describe(renewAtOf.name, () => {
  const now = Date.parse('2026-11-29T12:00:00Z');
  const at = (ms: number) => new Date(now + ms);

  it('renews a 10-minute token with a third of its life left', () => {
    expect(renewAtOf(at(540_000), now)).toEqual(at(360_000));
  });

  it('renews a long token at least 2 minutes before its end, and a short one not in its first half', () => {
    expect(renewAtOf(at(3_600_000), now)).toEqual(at(2_400_000));
    expect(renewAtOf(at(300_000), now)).toEqual(at(180_000));
    expect(renewAtOf(at(90_000), now)).toEqual(at(45_000));
  });
});
