/** Polls `probe` until it returns something truthy; fails with `what` after `timeoutMs`. */
export async function eventually<T>(
  probe: () => T | Promise<T>,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value) return value as NonNullable<T>;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}
