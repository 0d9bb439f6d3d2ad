import { Injectable, Logger } from '@nestjs/common';
import { ConnectorDirectory } from '@connector/ats-client-factory';
import type { ErasedRecordsDto } from '@connector/contracts';
import { CandidateLocks } from '@connector/exactly-once';
import { TransientMessageError } from '@connector/messaging';
import { ErasedCandidates } from '@connector/service-kit';
import { ApplicationLinkRepository } from '../applications/application-link.repository';
import { CandidateLinkRepository } from '../candidates/candidate-link.repository';

/**
 * `candidate.erased` in candidate-sync: the tombstone first (from then on the candidate's events are refused,
 * also by work already running, which checks under its lock), then, under each connector's candidate lock,
 * the links lose everything but their ids. Nothing is sent to the ATS.
 */
@Injectable()
export class CandidateErasureService {
  private readonly logger = new Logger(CandidateErasureService.name);

  constructor(
    private readonly erased: ErasedCandidates,
    private readonly directory: ConnectorDirectory,
    private readonly locks: CandidateLocks,
    private readonly candidates: CandidateLinkRepository,
    private readonly applications: ApplicationLinkRepository,
  ) {}

  async erase(
    accountId: string,
    candidateId: string,
  ): Promise<Pick<ErasedRecordsDto, 'candidateLinks' | 'applicationLinks'>> {
    await this.erased.tombstone(accountId, candidateId);
    let current: string[];
    try {
      current = (await this.directory.forAccount(accountId)).map((connector) => connector.id);
    } catch (error) {
      throw new TransientMessageError(`connectors of ${accountId}: ${(error as Error).message}`);
    }
    // Every connector a sync may be writing to right now, and every one that holds a link.
    const connectorIds = new Set([
      ...current,
      ...(await this.candidates.connectorsOf(accountId, candidateId)),
    ]);
    const removed = { candidateLinks: 0, applicationLinks: 0 };
    for (const connectorId of connectorIds) {
      await this.locks.run(connectorId, candidateId, async ({ token }) => {
        removed.candidateLinks += await this.candidates.erase(connectorId, candidateId, token);
        removed.applicationLinks += await this.applications.erase(connectorId, candidateId, token);
      });
    }
    this.logger.log(`candidate ${candidateId} erased: ${JSON.stringify(removed)}`);
    return removed;
  }
}
