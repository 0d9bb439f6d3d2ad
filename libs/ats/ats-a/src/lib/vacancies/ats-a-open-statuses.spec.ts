import type { AtsAClient } from '../client/ats-a.client';
import { ATS_A_STATUS_LIST_TTL_MS, AtsAOpenStatuses } from './ats-a-open-statuses';

describe(AtsAOpenStatuses.name, () => {
  const list = [
    { Id: 31, Description: 'Open' },
    { Id: 7, Description: 'Live' },
  ];
  const client = (items: unknown[][]) => {
    const getVacancyStatuses = jest.fn();
    for (const answer of items) getVacancyStatuses.mockResolvedValueOnce(answer);
    return { getVacancyStatuses } as unknown as AtsAClient & { getVacancyStatuses: jest.Mock };
  };

  it('reads the status list once per connector and day', async () => {
    const sut = new AtsAOpenStatuses();
    const ats = client([list, list]);
    expect((await sut.resolve('c1', ats, ['Open', 'Live'], 0)).ids).toEqual([31, 7]);
    expect((await sut.resolve('c1', ats, ['Live'], ATS_A_STATUS_LIST_TTL_MS - 1)).ids).toEqual([7]);
    expect(ats.getVacancyStatuses).toHaveBeenCalledTimes(1);
    await sut.resolve('c1', ats, ['Live'], ATS_A_STATUS_LIST_TTL_MS);
    expect(ats.getVacancyStatuses).toHaveBeenCalledTimes(2);
  });

  it('reads it again at once when a configured name is not in it (a status added since)', async () => {
    const sut = new AtsAOpenStatuses();
    const ats = client([list, [...list, { Id: 52, Description: 'Advertised' }]]);
    await sut.resolve('c1', ats, ['Open'], 0);
    const result = await sut.resolve('c1', ats, ['Open', 'Advertised'], 1_000);
    expect(result).toMatchObject({ ids: [31, 52], missing: [] });
    expect(ats.getVacancyStatuses).toHaveBeenCalledTimes(2);
  });

  it('keeps connectors apart', async () => {
    const sut = new AtsAOpenStatuses();
    const ats = client([list, [{ Id: 5, Description: 'Open' }]]);
    expect((await sut.resolve('c1', ats, ['Open'], 0)).ids).toEqual([31]);
    expect((await sut.resolve('c2', ats, ['Open'], 0)).ids).toEqual([5]);
  });
});
