import { atsAVacancyLiveness, resolveAtsAStatuses, type AtsAVacancy } from '@connector/ats-a';

/**
 * The baseline: the same minimal ATS-A calls vacancy-sync makes for a full listing (token, the status list
 * (dropdown 50) to turn "Open", "Live" into ids, vacancy pages of 100 filtered on status ids and IncludeOnSite, one contacts and one companies call per page for ids not fetched
 * yet), with plain fetch and nothing else: no budget, no database, no events.
 */
export async function bareAtsAFullSync(
  baseUrl: string,
  clientId: string,
  clientSecret: string,
): Promise<{ wallMs: number; calls: number; live: number }> {
  const started = performance.now();
  let calls = 0;
  const post = async <T>(path: string, body: unknown, token?: string): Promise<T> => {
    calls++;
    const response = await fetch(`${baseUrl}/api${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status}`);
    return (await response.json()) as T;
  };
  const { access_token: token } = await post<{ access_token: string }>('/token', {
    grant_type: 'client_credentials',
    client_id: clientId,
    client_secret: clientSecret,
  });
  calls++;
  const dropdown = await fetch(`${baseUrl}/api/options/dropdown/50`, {
    headers: { accept: 'application/json', authorization: `Bearer ${token}` },
  });
  if (!dropdown.ok) throw new Error(`dropdown 50: ${dropdown.status}`);
  const open = resolveAtsAStatuses(['Open', 'Live'], (await dropdown.json()) as unknown[]).ids;
  const fetched = { contacts: new Set<number>(), companies: new Set<number>() };
  let live = 0;
  for (let page = 1; ; page++) {
    const result = await post<{ CurrentPage: number; TotalPages: number; Records: AtsAVacancy[] }>(
      '/vacancies/search',
      {
        Paging: { RecordsPerPage: 100, RequestedPage: page },
        Filters: [
          { Route: 'Vacancy.VacancyStatus', Operation: 'In', Value: open },
          { Route: 'Vacancy.IncludeOnSite', Operation: 'Equals', Value: true },
        ],
      },
      token,
    );
    const records = result.Records.filter((v) => atsAVacancyLiveness(v, open, new Date()).live);
    live += records.length;
    for (const [resource, route, key] of [
      ['contacts', 'Contact.ContactId', 'Contact'],
      ['companies', 'Company.CompanyId', 'Company'],
    ] as const) {
      const seen = fetched[resource];
      const ids = [...new Set(records.map((v) => v[key]?.Id).filter((id): id is number => !!id))].filter(
        (id) => !seen.has(id),
      );
      if (ids.length === 0) continue;
      ids.forEach((id) => seen.add(id));
      await post(
        `/${resource}/search`,
        {
          Paging: { RecordsPerPage: ids.length, RequestedPage: 1 },
          Filters: [{ Route: route, Operation: 'In', Value: ids }],
        },
        token,
      );
    }
    if (result.TotalPages === 0 || page >= result.TotalPages) break;
  }
  return { wallMs: performance.now() - started, calls, live };
}
