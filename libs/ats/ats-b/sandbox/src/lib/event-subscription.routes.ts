import type { FastifyInstance } from 'fastify';
import { AtsBError } from './ats-b.error';
import { answer, queryOf, type SandboxContext } from './sandbox.context';

/**
 * `event/subscription/{id}` as rest-api-docs `_subscription.md` and sdk-rest `BullhornData` describe it: PUT
 * subscribes, GET with maxEvents reads (and removes), GET with requestId reads a batch again, DELETE unsubscribes.
 * Data calls: they need a session and count against the per-minute limit.
 */
export function registerEventSubscriptionRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const events = ctx.state.events;
  const path = '/rest-services/:corpToken/event/subscription/:subscriptionId';
  const idOf = (params: unknown): string => (params as { subscriptionId: string }).subscriptionId;

  app.put(path, { config: { dataCall: true, callKey: 'PUT event/subscription' } }, async (request, reply) => {
    const q = queryOf(request);
    const body = events.subscribe(idOf(request.params), {
      type: q['type'],
      names: q['names'],
      eventTypes: q['eventTypes'],
    });
    return answer(ctx, request, reply, 200, body);
  });

  app.get(path, { config: { dataCall: true, callKey: 'GET event/subscription' } }, async (request, reply) => {
    const q = queryOf(request);
    const id = idOf(request.params);
    if (q['requestId'] !== undefined && q['requestId'] !== '')
      return answer(ctx, request, reply, 200, events.reread(id, positiveInt(q['requestId'], 'requestId')));
    if (q['maxEvents'] === undefined || q['maxEvents'] === '')
      throw AtsBError.badRequest("'maxEvents' is required", 'errors.missingParameter');
    return answer(ctx, request, reply, 200, events.read(id, positiveInt(q['maxEvents'], 'maxEvents')));
  });

  app.get(
    `${path}/lastRequestId`,
    { config: { dataCall: true, callKey: 'GET event/subscription/lastRequestId' } },
    async (request) => ({ result: events.lastRequestId(idOf(request.params)) }),
  );

  // choice: the vendor documents `{"result": true}`; sdk-rest reads a Boolean, so an unknown id answers false.
  app.delete(
    path,
    { config: { dataCall: true, callKey: 'DELETE event/subscription' } },
    async (request, reply) =>
      answer(ctx, request, reply, 200, { result: events.unsubscribe(idOf(request.params)) }),
  );
}

function positiveInt(raw: string | undefined, name: string): number {
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 1)
    throw AtsBError.badRequest(`'${name}' must be a positive integer`, 'errors.invalidParameter');
  return n;
}
