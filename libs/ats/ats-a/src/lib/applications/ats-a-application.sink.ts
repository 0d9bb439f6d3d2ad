import type { ApplicationSink, ApplicationSinkFactory } from '@connector/ats-core';
import { PermanentMessageError } from '@connector/messaging';
import type { AtsAClient } from '../client/ats-a.client';
import type { AtsAQuestion } from '../client/ats-a.types';

/** ATS-A: `POST /api/applications`, `PATCH` the changed answers, `applications/search` to reconcile. */
export class AtsAApplicationSink implements ApplicationSink {
  constructor(
    private readonly client: AtsAClient,
    private readonly connectorId: string,
  ) {}

  get settleMs(): number {
    return this.client.unsureWriteSettleMs;
  }

  async findExisting(candidateExternalId: string, vacancyExternalId: string): Promise<string | undefined> {
    const page = await this.client.search<{ ApplicationId: number }>('applications', {
      Paging: { RecordsPerPage: 50, RequestedPage: 1 },
      Filters: [
        { Route: 'Application.Candidate', Operation: 'Equals', Value: Number(candidateExternalId) },
        { Route: 'Application.Vacancy', Operation: 'Equals', Value: this.vacancyId(vacancyExternalId) },
      ],
      ResponseBlocks: ['ApplicationId'],
    });
    const ids = page.Records.map((record) => record.ApplicationId);
    return ids.length > 0 ? String(Math.min(...ids)) : undefined;
  }

  async create(
    candidateExternalId: string,
    vacancyExternalId: string,
    questions: AtsAQuestion[],
    signal?: AbortSignal,
  ): Promise<string> {
    const { ApplicationId } = await this.client.createApplication(
      {
        Candidate: { Id: Number(candidateExternalId) },
        Vacancy: { Id: this.vacancyId(vacancyExternalId) },
        ...(questions.length > 0 ? { Questions: questions } : {}),
      },
      { signal },
    );
    return String(ApplicationId);
  }

  async updateAnswers(externalId: string, changed: AtsAQuestion[], signal?: AbortSignal): Promise<void> {
    await this.client.patchApplication(Number(externalId), { Questions: changed }, { signal });
  }

  /** ATS-A vacancy ids are numbers; vacancy-sync published them as such. */
  private vacancyId(externalId: string): number {
    const id = Number(externalId);
    if (!Number.isSafeInteger(id) || id <= 0) {
      throw new PermanentMessageError(`vacancy ${externalId} is not an ATS-A vacancy id`, this.connectorId);
    }
    return id;
  }
}

/** The adapter's `applicationSink`. */
export const atsAApplicationSink: ApplicationSinkFactory<AtsAClient> = ({ client, connector }) =>
  new AtsAApplicationSink(client, connector.id);
