import { addToLogContext, currentLogContext, withLogContext } from './log-context';

describe('log context', () => {
  it('is empty outside any work', () => {
    expect(currentLogContext()).toBeUndefined();
    addToLogContext({ connectorId: 'c-1' });
    expect(currentLogContext()).toBeUndefined();
  });

  it('follows the work through awaits, and a nested context leaves the outer one as it was', async () => {
    const seen: unknown[] = [];
    await withLogContext({ messageId: 'm-1', eventType: 'candidate.created' }, async () => {
      addToLogContext({ correlationId: 'corr-1', accountId: '' });
      await new Promise((resolve) => setImmediate(resolve));
      await withLogContext({ connectorId: 'c-1' }, async () => {
        await Promise.resolve();
        seen.push(currentLogContext());
      });
      seen.push(currentLogContext());
    });
    expect(seen).toEqual([
      { messageId: 'm-1', eventType: 'candidate.created', correlationId: 'corr-1', connectorId: 'c-1' },
      { messageId: 'm-1', eventType: 'candidate.created', correlationId: 'corr-1' },
    ]);
    expect(currentLogContext()).toBeUndefined();
  });

  it('keeps concurrent work apart', async () => {
    const one = withLogContext({ messageId: 'a' }, async () => {
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      return currentLogContext()?.messageId;
    });
    const two = withLogContext({ messageId: 'b' }, async () => currentLogContext()?.messageId);
    expect(await Promise.all([one, two])).toEqual(['a', 'b']);
  });
});
