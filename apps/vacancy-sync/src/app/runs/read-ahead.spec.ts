import { readAhead } from './read-ahead';

describe(readAhead.name, () => {
  it('fetches the next item while the consumer works on the current one', async () => {
    const log: string[] = [];
    async function* pages() {
      for (let page = 1; page <= 3; page++) {
        log.push(`fetch ${page}`);
        yield page;
      }
    }
    for await (const page of readAhead(pages())) log.push(`use ${page}`);
    expect(log).toEqual(['fetch 1', 'fetch 2', 'use 1', 'fetch 3', 'use 2', 'use 3']);
  });

  it('hands a failure of the fetch ahead to the consumer when it gets there', async () => {
    async function* pages() {
      yield 1;
      throw new Error('429');
    }
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const page of readAhead(pages())) seen.push(page);
      })(),
    ).rejects.toThrow('429');
    expect(seen).toEqual([1]);
  });
});
