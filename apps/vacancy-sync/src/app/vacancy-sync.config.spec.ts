import { loadConfig } from '@connector/service-kit';
import { VacancySyncConfig } from './vacancy-sync.config';

describe('VacancySyncConfig retention', () => {
  it('keeps 30 days and 500 runs a connector, closed vacancies 30 days, unless told; refuses what is off', () => {
    const config = loadConfig(VacancySyncConfig, { NODE_ENV: 'test' });
    expect([
      config.RUN_HISTORY_DAYS,
      config.RUN_HISTORY_PER_CONNECTOR,
      config.CLOSED_VACANCY_RETENTION_DAYS,
    ]).toEqual([30, 500, 30]);
    expect(() => loadConfig(VacancySyncConfig, { NODE_ENV: 'test', RUN_HISTORY_PER_CONNECTOR: '0' })).toThrow(
      /RUN_HISTORY_PER_CONNECTOR must not be less than 20/,
    );
    expect(() =>
      loadConfig(VacancySyncConfig, { NODE_ENV: 'test', CLOSED_VACANCY_RETENTION_DAYS: 'never' }),
    ).toThrow(/CLOSED_VACANCY_RETENTION_DAYS/);
  });
});
