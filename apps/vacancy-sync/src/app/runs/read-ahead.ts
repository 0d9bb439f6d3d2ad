/**
 * Iterates `source` one item ahead: while the consumer works on an item, the next is already being fetched.
 * Costs at most one fetch the consumer never uses (when it stops early); memory stays at two items.
 */
export async function* readAhead<T>(source: AsyncIterable<T>): AsyncGenerator<T, void, undefined> {
  const iterator = source[Symbol.asyncIterator]();
  let next = iterator.next();
  try {
    for (;;) {
      const current = await next;
      if (current.done) return;
      next = iterator.next();
      // A failure of the fetch ahead surfaces when the consumer gets to it, not as an unhandled rejection.
      next.catch(() => undefined);
      yield current.value;
    }
  } finally {
    await iterator.return?.(undefined);
  }
}
