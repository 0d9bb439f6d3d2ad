import { Injectable, Logger } from '@nestjs/common';
import { ConnectorDirectory } from '@connector/ats-client-factory';
import type { ErasedRecordsDto } from '@connector/contracts';
import { CandidateLocks } from '@connector/exactly-once';
import { RpcError, TransientMessageError } from '@connector/messaging';
import { ErasedCandidates } from '@connector/service-kit';
import { CandidateRefRepository } from '../candidate-refs/candidate-ref.repository';
import { DocumentLinkRepository } from '../documents/document-link.repository';

/**
 * `candidate.erased` in document-service: the tombstone first (the candidate's documents are refused from
 * then on, also by uploads already running, which check under their lock), then, under each connector's
 * candidate lock, the candidate's file links and ATS references go. Nothing is sent to the ATS.
 */
@Injectable()
export class DocumentErasureService {
  private readonly logger = new Logger(DocumentErasureService.name);

  constructor(
    private readonly erased: ErasedCandidates,
    private readonly directory: ConnectorDirectory,
    private readonly locks: CandidateLocks,
    private readonly links: DocumentLinkRepository,
    private readonly refs: CandidateRefRepository,
  ) {}

  async erase(
    accountId: string,
    candidateId: string,
  ): Promise<Pick<ErasedRecordsDto, 'documentLinks' | 'candidateRefs'>> {
    await this.erased.tombstone(accountId, candidateId);
    const removed = { documentLinks: 0, candidateRefs: 0 };
    for (const connectorId of await this.connectorsOf(accountId, candidateId)) {
      await this.locks.run(connectorId, candidateId, async () => {
        removed.documentLinks += await this.links.erase(connectorId, candidateId);
        removed.candidateRefs += await this.refs.erase(connectorId, candidateId);
      });
    }
    this.logger.log(`candidate ${candidateId} erased: ${JSON.stringify(removed)}`);
    return removed;
  }

  /**
   * The account's connectors (an upload may be running in any of them) and those holding rows of the
   * candidate that are this account's or deleted (these tables keep no account: a candidate id of another
   * account's live connector is left alone).
   */
  private async connectorsOf(accountId: string, candidateId: string): Promise<Set<string>> {
    try {
      const ids = new Set((await this.directory.forAccount(accountId)).map((connector) => connector.id));
      const holding = [
        ...(await this.links.connectorsOf(candidateId)),
        ...(await this.refs.connectorsOf(candidateId)),
      ];
      for (const connectorId of holding) {
        if (ids.has(connectorId)) continue;
        const owner = await this.directory.get(connectorId, accountId).then(
          (connector) => connector.accountId,
          (error: unknown) => {
            if (error instanceof RpcError && error.code === 'NOT_FOUND') return accountId; // deleted
            throw error;
          },
        );
        if (owner === accountId) ids.add(connectorId);
      }
      return ids;
    } catch (error) {
      throw new TransientMessageError(`connectors of ${accountId}: ${(error as Error).message}`);
    }
  }
}
