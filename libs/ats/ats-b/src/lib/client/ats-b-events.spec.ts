import { readEventBatch } from './ats-b-events';

describe(readEventBatch.name, () => {
  it('reads an empty answer ({}) as no events', () => {
    expect(readEventBatch({})).toEqual({ events: [] });
    expect(readEventBatch(null)).toEqual({ events: [] });
  });

  it('reads ids and times as numbers or numeric text, and leaves out what cannot be acted on', () => {
    const batch = readEventBatch({
      requestId: '12',
      events: [
        {
          eventId: 'ID:JBM-1',
          entityName: 'JobOrder',
          entityId: '42',
          entityEventType: 'UPDATED',
          updatedProperties: ['title'],
          eventTimestamp: '1764240000000',
        },
        { entityName: 'JobOrder', entityId: 7, entityEventType: 'DELETED', eventTimestamp: 1764240001000 },
        { entityName: 'Candidate', entityId: 8, entityEventType: 'INSERTED' },
        { entityName: 'JobOrder', entityId: 'x', entityEventType: 'INSERTED' },
        { entityName: 'JobOrder', entityId: 9, entityEventType: 'MERGED' },
      ],
    });
    expect(batch).toEqual({
      requestId: 12,
      events: [
        { entityId: 42, type: 'UPDATED', timestamp: new Date(1764240000000), updatedProperties: ['title'] },
        { entityId: 7, type: 'DELETED', timestamp: new Date(1764240001000) },
      ],
    });
  });
});
