import type { ClientOptions, AtsClientFactory } from '@connector/ats-access';
import { atsAAdapter } from '@connector/ats-a';
import type { AtsPart } from '@connector/ats-core';
import type { AtsAClient, AtsAQuestion } from '@connector/ats-a';
import type { ConnectorSnapshot } from '@connector/contracts';
import { PermanentMessageError } from '@connector/messaging';

/** One ATS's way of writing applications; an ATS without applications has no sink. */
export interface ApplicationSink {
  /** From a create's claim until `findExisting` surely sees it if it landed (timeout + the ATS's index lag). */
  readonly settleMs: number;
  /** The application an earlier create of ours may have made (crash or timeout after sending). */
  findExisting(candidateExternalId: string, vacancyExternalId: string): Promise<string | undefined>;
  /** `signal`: the candidate's lock; once it is lost, no write is sent (see AtsWriteOptions). */
  create(
    candidateExternalId: string,
    vacancyExternalId: string,
    questions: AtsAQuestion[],
    signal?: AbortSignal,
  ): Promise<string>;
  updateAnswers(externalId: string, changed: AtsAQuestion[], signal?: AbortSignal): Promise<void>;
}

/** candidate-sync's part of one ATS that declares `applications`: makes its sink for a connector. */
export interface ApplicationSinkPart extends AtsPart {
  create(
    connector: ConnectorSnapshot,
    deps: { clients: AtsClientFactory; options: ClientOptions },
  ): ApplicationSink;
}

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

export const atsAApplicationSinkPart: ApplicationSinkPart = {
  atsType: atsAAdapter.type,
  create: (connector, { clients, options }) =>
    new AtsAApplicationSink(clients.client(atsAAdapter, connector, options), connector.id),
};
