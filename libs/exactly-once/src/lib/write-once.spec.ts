import { AtsError } from '@connector/ats-clients';
import { type CreateSink, type LinkStore, type OrderedLink, syncInOrder, writeOnce } from './write-once';

interface Row {
  externalId: string | null;
  state: 'pending' | 'linked';
}

/** A link table of one row and an ATS that keeps what was created, as the real ports do. */
class InMemoryWorld {
  row: Row | undefined;
  readonly atsRecords: string[] = [];
  readonly calls: string[] = [];
  /** The next create lands in the ATS, then fails with this error (the answer is lost). */
  failAfterSending: Error | undefined;
  /** The next create fails before anything is sent. */
  failBeforeSending: Error | undefined;

  store(withRelease: boolean): LinkStore<{ externalId: string }> {
    return {
      claim: async () => {
        this.calls.push('claim');
        if (!this.row?.externalId) this.row = { externalId: null, state: 'pending' };
      },
      link: async ({ externalId }) => {
        this.calls.push(`link ${externalId}`);
        this.row = { externalId, state: 'linked' };
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
      const externalId = `ats-${this.atsRecords.length + 1}`;
      this.atsRecords.push(externalId);
      if (this.failAfterSending) throw this.takeError('failAfterSending');
      return { externalId };
    },
  };

  private takeError(which: 'failAfterSending' | 'failBeforeSending'): Error {
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

  it('claims before it creates, then links what the ATS made', async () => {
    await expect(sut()).resolves.toEqual({
      how: 'created',
      externalId: 'ats-1',
      created: { externalId: 'ats-1' },
    });
    expect(world.calls).toEqual(['claim', 'create', 'link ats-1']);
    expect(world.row).toEqual({ externalId: 'ats-1', state: 'linked' });
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
    expect(world.row).toEqual({ externalId: null, state: 'pending' });

    world.calls.length = 0;
    await expect(sut()).resolves.toEqual({ how: 'found', externalId: 'ats-1' });
    expect(world.calls).toEqual(['findExisting', 'link ats-1']);
    expect(world.atsRecords).toEqual(['ats-1']);
  });

  it('after an unsure create that did not land, looks, then claims and creates', async () => {
    world.row = { externalId: null, state: 'pending' }; // crashed after the claim, before the create
    await expect(sut()).resolves.toMatchObject({ how: 'created', externalId: 'ats-1' });
    expect(world.calls).toEqual(['findExisting', 'claim', 'create', 'link ats-1']);
    expect(world.atsRecords).toEqual(['ats-1']);
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
    expect(world.row).toEqual({ externalId: null, state: 'pending' });
  });

  it('keeps every claim when the store has no release', async () => {
    world.failBeforeSending = refused();
    await expect(sut(false)).rejects.toThrow('refused');
    expect(world.row).toEqual({ externalId: null, state: 'pending' });
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
    });
    await expect(syncInOrder({ event, contentHash: 'h2', link, skipped }, never)).resolves.toEqual({
      action: 'created',
      externalId: 'ats-1',
    });
    await expect(
      syncInOrder({ event, contentHash: 'h2', link: { ...link, createdEventId: 'e1' }, skipped }, never),
    ).resolves.toEqual({ action: 'updated', externalId: 'ats-1' });
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
