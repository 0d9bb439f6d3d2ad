import { dataCentreOptions, resolveOptions, routerOptions } from '../ats-b-sandbox.options';

describe('ATS-B data centre options', () => {
  const template = resolveOptions({
    dataCentres: [{ name: 'us', port: 4021 }, { name: 'emea' }],
    users: [
      { username: 'a', password: 'x' },
      { username: 'b', password: 'y', dataCentre: 'emea' },
    ],
  });

  it('gives each data centre only its users (a user naming none is in the first)', () => {
    expect(dataCentreOptions(template, 'us').users.map((u) => u.username)).toEqual(['a']);
    expect(dataCentreOptions(template, 'emea').users.map((u) => u.username)).toEqual(['b']);
    expect(dataCentreOptions(template, 'emea').dataCentres).toEqual([]);
  });

  it('gives the router no users and no jobs', () => {
    const router = routerOptions(template);
    expect(router.users).toEqual([]);
    expect(router.seed.jobs).toBe(0);
  });

  it('refuses a user in a data centre that does not exist', () => {
    expect(() =>
      resolveOptions({
        dataCentres: [{ name: 'us' }],
        users: [{ username: 'a', password: 'x', dataCentre: 'eu' }],
      }),
    ).toThrow(/'a' names data centre 'eu', not one of us/);
    expect(() => resolveOptions({ users: [{ username: 'a', password: 'x', dataCentre: 'eu' }] })).toThrow(
      /there are none/,
    );
  });
});
