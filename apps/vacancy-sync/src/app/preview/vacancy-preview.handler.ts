import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { type EventEnvelope, RoutingKey, type VacancyPreviewRequestedDto } from '@connector/contracts';
import type { VacancyUpsert } from '../vacancies/vacancy-content';
import { VacancyPreviewService } from './vacancy-preview.service';

/** `vacancy.preview.requested` (request-reply from connector-registry's Mapping tab). */
@Controller()
export class VacancyPreviewHandler {
  constructor(private readonly previews: VacancyPreviewService) {}

  @MessagePattern(RoutingKey.VacancyPreviewRequested)
  handle(
    @Payload() request: EventEnvelope<string, VacancyPreviewRequestedDto>,
  ): Promise<{ vacancies: VacancyUpsert[] }> {
    return this.previews.preview(request.accountId, request.data);
  }
}
