import { NotReadyError, PermanentMessageError } from '@connector/messaging';
import { AtsError, UNSURE_WRITE_SETTLE_MS } from '@connector/ats-http';
import {
  type CreateSink,
  type LinkStore,
  type OrderedLink,
  recordLanded,
  syncInOrder,
  writeOnce,
} from './write-once';

interface Row {
  externalId: string | null;
  state: 'pending' | 'linked';
  updatedAt?: Date;
}

/** A link table of one row and an ATS that keeps what was created, as the real ports do. */
class InMemoryWorld {
  row: Row | undefined;
  readonly atsRecords: string[] = [];
  readonly calls: string[] = [];
  /** The next create lands in the ATS, then fails with this error (the answer is lost). */
  failAfterSending: Error | undefined;
  /** The next create fails with this error, its write landing in the ATS only later (it sat in a queue). */
  failLandingLater: Error | undefined;
  private landLater: string | undefined;

  /** The write of a create the client gave up on lands now. */
  land(): void {
    if (this.landLater) this.atsRecords.push(this.landLater);
    this.landLater = undefined;
  }
  /** The next create fails before anything is sent. */
  failBeforeSending: Error | undefined;

  store(withRelease: boolean): LinkStore<{ externalId: string }> {
    return {
      claim: async () => {
        this.calls.push('claim');
        if (!this.row?.externalId) this.row = { externalId: null, state: 'pending', updatedAt: new Date() };
      },
      link: async ({ externalId }) => {
        this.calls.push(`link ${externalId}`);
        this.row = { externalId, state: 'linked', updatedAt: new Date() };
      },
      ...(withRelease
        ? {
            release: async () => {
              this.calls.push('release');
              if (!this.row?.externalId) this.row = undefined;
            },
          }
        : {}),
    };
  }

  readonly sink: CreateSink<{ externalId: string }> = {
    findExisting: async () => {
      this.calls.push('findExisting');
      return this.atsRecords[0];
    },
    create: async () => {
      this.calls.push('create');
      if (this.failBeforeSending) throw this.takeError('failBeforeSending');
      if (this.failLandingLater) {
        this.landLater = 'ats-late';
        throw this.takeError('failLandingLater');
      }
      const externalId = `ats-${this.atsRecords.length + 1}`;
      this.atsRecords.push(externalId);
      if (this.failAfterSending) throw this.takeError('failAfterSending');
      return { externalId };
    },
  };

  private takeError(which: 'failAfterSending' | 'failBeforeSending' | 'failLandingLater'): Error {
    const error = this[which] as Error;
    this[which] = undefined;
    return error;
  }
}

const timeout = () =>
  new AtsError('timed out after sending', { kind: 'transient', endpoint: 'POST /x', ambiguous: true });
const refused = () => new AtsError('refused', { kind: 'transient', endpoint: 'POST /x', status: 503 });

describe(writeOnce.name, () => {
  let world: InMemoryWorld;
  const sut = (withRelease = false) => writeOnce(world.row, world.store(withRelease), world.sink);

  beforeEach(() => {
    world = new InMemoryWorld();
  });

  it('starts no ATS call once its lease is lost, and frees the claim it took', async () => {
    const lost = new AbortController();
    lost.abort(new Error('lease lost'));
    await expect(writeOnce(world.row, world.store(true), world.sink, lost.signal)).rejects.toThrow(
      'lease lost',
    );
    expect(world.calls).toEqual(['claim', 'release']);
    world.row = { externalId: null, state: 'pending' };
    await expect(writeOnce(world.row, world.store(true), world.sink, lost.signal)).rejects.toThrow(
      'lease lost',
    );
    expect(world.atsRecords).toEqual([]);
    expect(world.calls).not.toContain('findExisting');
  });

  it('claims before it creates, then links what the ATS made', async () => {
    await expect(sut()).resolves.toEqual({
      how: 'created',
      externalId: 'ats-1',
      created: { externalId: 'ats-1' },
    });
    expect(world.calls).toEqual(['claim', 'create', 'link ats-1']);
    expect(world.row).toMatchObject({ externalId: 'ats-1', state: 'linked' });
  });

  it('keeps recording what the ATS created while the database is briefly out of reach, creating nothing twice', async () => {
    const store = world.store(true);
    let refusals = 2;
    const link = store.link;
    store.link = async (written) => {
      if (refusals-- > 0) throw new Error('Connection terminated unexpectedly');
      return link(written);
    };
    await expect(writeOnce(world.row, store, world.sink)).resolves.toMatchObject({
      how: 'created',
      externalId: 'ats-1',
    });
    expect(world.atsRecords).toEqual(['ats-1']);
    expect(world.row).toMatchObject({ externalId: 'ats-1', state: 'linked' });
  });

  it('leaves a linked record alone (a replay writes nothing)', async () => {
    await sut();
    world.calls.length = 0;
    await expect(sut()).resolves.toEqual({ how: 'linked', externalId: 'ats-1' });
    expect(world.calls).toEqual([]);
    expect(world.atsRecords).toEqual(['ats-1']);
  });

  it('after an unsure create that landed, finds the record instead of making a second one', async () => {
    world.failAfterSending = timeout();
    await expect(sut()).rejects.toThrow('timed out after sending');
    expect(world.row).toMatchObject({ externalId: null, state: 'pending' });

    world.calls.length = 0;
    await expect(sut()).resolves.toEqual({ how: 'found', externalId: 'ats-1' });
    expect(world.calls).toEqual(['findExisting', 'link ats-1']);
    expect(world.atsRecords).toEqual(['ats-1']);
  });

  it('after an unsure create that did not land, looks, then claims and creates once it cannot land', async () => {
    // Crashed after the claim, before the create, longer ago than an ATS could still apply a write.
    world.row = {
      externalId: null,
      state: 'pending',
      updatedAt: new Date(Date.now() - UNSURE_WRITE_SETTLE_MS - 1_000),
    };
    await expect(sut()).resolves.toMatchObject({ how: 'created', externalId: 'ats-1' });
    expect(world.calls).toEqual(['findExisting', 'claim', 'create', 'link ats-1']);
    expect(world.atsRecords).toEqual(['ats-1']);
  });

  it("settles an unsure create after the sink's own settle time (its ATS's index lag), not a fixed minute", async () => {
    // Claimed 8 s ago: past a sink's 3 s timeout and 5 s index lag, well inside the default minute.
    const claimed = { externalId: null, state: 'pending' as const, updatedAt: new Date(Date.now() - 8_000) };
    world.row = { ...claimed };
    await expect(writeOnce(world.row, world.store(true), world.sink)).rejects.toThrow(NotReadyError);
    world.calls.length = 0;
    world.row = { ...claimed };
    await expect(
      writeOnce(world.row, world.store(true), { ...world.sink, settleMs: 3_000 + 5_000 }),
    ).resolves.toMatchObject({ how: 'created', externalId: 'ats-1' });
    expect(world.calls).toEqual(['findExisting', 'claim', 'create', 'link ats-1']);
  });

  it('does not create again while an unsure create may still land, so a late write makes no second record', async () => {
    world.failLandingLater = timeout();
    await expect(sut()).rejects.toThrow('timed out after sending');
    // Another event of the record, or a retry, looks before the late write lands: it must wait, not create.
    world.calls.length = 0;
    await expect(sut()).rejects.toThrow(NotReadyError);
    expect(world.calls).toEqual(['findExisting']);
    world.land();
    await expect(sut()).resolves.toEqual({ how: 'found', externalId: 'ats-late' });
    expect(world.atsRecords).toEqual(['ats-late']);
  });

  it('frees the claim of a create that surely did not happen, when the store can', async () => {
    world.failBeforeSending = refused();
    await expect(sut(true)).rejects.toThrow('refused');
    expect(world.calls).toEqual(['claim', 'create', 'release']);
    expect(world.row).toBeUndefined();
  });

  it('keeps the claim of an unsure create even when the store could free it', async () => {
    world.failAfterSending = timeout();
    await expect(sut(true)).rejects.toThrow('timed out after sending');
    expect(world.calls).toEqual(['claim', 'create']);
    expect(world.row).toMatchObject({ externalId: null, state: 'pending' });
  });

  it('keeps every claim when the store has no release', async () => {
    world.failBeforeSending = refused();
    await expect(sut(false)).rejects.toThrow('refused');
    expect(world.row).toMatchObject({ externalId: null, state: 'pending' });
  });
});

describe(syncInOrder.name, () => {
  const skipped = { stale: 'older; skipped', duplicate: 'same; skipped' };
  const event = { id: 'e2', occurredAt: '2026-01-01T00:00:01.000Z' };
  const applied = (over: Partial<OrderedLink>): OrderedLink => ({
    externalId: 'ats-1',
    state: 'linked',
    createdEventId: 'e1',
    lastEventId: 'e1',
    lastOccurredAt: new Date('2026-01-01T00:00:00.000Z'),
    contentHash: 'h1',
    ...over,
  });
  const never = () => Promise.reject(new Error('must not write'));

  it('creates a new record and says created', async () => {
    const outcome = await syncInOrder({ event, contentHash: 'h2', link: undefined, skipped }, async () => ({
      how: 'created',
      externalId: 'ats-9',
      created: {},
    }));
    expect(outcome).toEqual({ action: 'created', externalId: 'ats-9' });
  });

  it('updates a linked record and says updated', async () => {
    const apply = jest.fn(async () => ({ how: 'linked' as const, externalId: 'ats-1' }));
    await expect(
      syncInOrder({ event, contentHash: 'h2', link: applied({}), skipped }, apply),
    ).resolves.toEqual({
      action: 'updated',
      externalId: 'ats-1',
    });
    expect(apply).toHaveBeenCalledTimes(1);
  });

  it('says created again when the found record was claimed by this very event', async () => {
    const link = applied({ externalId: null, state: 'pending', createdEventId: 'e2', lastOccurredAt: null });
    const outcome = await syncInOrder({ event, contentHash: 'h2', link, skipped }, async () => ({
      how: 'found',
      externalId: 'ats-1',
    }));
    expect(outcome).toEqual({ action: 'created', externalId: 'ats-1' });
  });

  it('announces a replayed event again without writing', async () => {
    const link = applied({
      lastEventId: 'e2',
      createdEventId: 'e2',
      lastOccurredAt: new Date(event.occurredAt),
      contentHash: 'h2',
    });
    await expect(syncInOrder({ event, contentHash: 'h2', link, skipped }, never)).resolves.toEqual({
      action: 'created',
      externalId: 'ats-1',
    });
    await expect(
      syncInOrder({ event, contentHash: 'h2', link: { ...link, createdEventId: 'e1' }, skipped }, never),
    ).resolves.toEqual({ action: 'updated', externalId: 'ats-1' });
  });

  it('refuses for good, writing nothing, an event whose id was applied with other content', async () => {
    const link = applied({
      lastEventId: 'e2',
      lastOccurredAt: new Date(event.occurredAt),
      contentHash: 'h1',
    });
    await expect(syncInOrder({ event, contentHash: 'h2', link, skipped }, never)).rejects.toThrow(
      PermanentMessageError,
    );
  });

  it('skips an older event and a same-time duplicate', async () => {
    const newer = applied({ lastOccurredAt: new Date('2026-01-02T00:00:00.000Z') });
    await expect(syncInOrder({ event, contentHash: 'h2', link: newer, skipped }, never)).resolves.toEqual({
      action: 'unchanged',
      why: 'older; skipped',
    });
    const same = applied({ lastOccurredAt: new Date(event.occurredAt), contentHash: 'h2' });
    await expect(syncInOrder({ event, contentHash: 'h2', link: same, skipped }, never)).resolves.toEqual({
      action: 'unchanged',
      why: 'same; skipped',
    });
  });
});

describe(recordLanded.name, () => {
  it('tries again until the record is written', async () => {
    let tries = 0;
    await recordLanded(
      async () => {
        if (++tries < 3) throw new Error('database down');
      },
      undefined,
      1_000,
      1,
    );
    expect(tries).toBe(3);
  });

  it('gives up once its time is over, with the last error', async () => {
    let tries = 0;
    await expect(
      recordLanded(
        async () => {
          tries++;
          throw new Error('database down');
        },
        undefined,
        20,
        8,
      ),
    ).rejects.toThrow('database down');
    expect(tries).toBeGreaterThan(1);
    expect(tries).toBeLessThan(5);
  });

  it('stops at once when the lease is lost', async () => {
    const lost = new AbortController();
    lost.abort();
    let tries = 0;
    await expect(
      recordLanded(
        async () => {
          tries++;
          throw new Error('fenced');
        },
        lost.signal,
        1_000,
        1,
      ),
    ).rejects.toThrow('fenced');
    expect(tries).toBe(1);
  });
});
