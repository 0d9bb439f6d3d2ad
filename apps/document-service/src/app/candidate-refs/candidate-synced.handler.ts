import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type CandidateSyncedDto, type EventEnvelope, RoutingKey } from '@connector/contracts';
import { ErasedCandidates } from '@connector/service-kit';
import { CandidateRefRepository } from './candidate-ref.repository';

/**
 * `candidate.synced` from candidate-sync: where the candidate lives in the ATS. Kept here rather than read
 * from candidate-sync's table, so each service owns its data and neither waits for the other at run time.
 */
@Controller()
export class CandidateSyncedHandler {
  constructor(
    private readonly refs: CandidateRefRepository,
    private readonly erased: ErasedCandidates,
  ) {}

  @EventPattern(RoutingKey.CandidateSynced)
  async handle(@Payload() event: EventEnvelope<typeof RoutingKey.CandidateSynced, CandidateSyncedDto>) {
    const { connectorId, candidateId, externalId } = event.data;
    // Announced before candidate-sync erased them: nothing to keep of an erased candidate.
    if (await this.erased.isErased(event.accountId, candidateId)) return;
    await this.refs.record(connectorId, candidateId, externalId);
  }
}
