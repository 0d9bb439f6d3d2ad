import { Module } from '@nestjs/common';
import { SourcesModule } from '../sources/sources.module';
import { VacancyPreviewHandler } from './vacancy-preview.handler';
import { VacancyPreviewService } from './vacancy-preview.service';

@Module({
  imports: [SourcesModule],
  controllers: [VacancyPreviewHandler],
  providers: [VacancyPreviewService],
})
export class PreviewModule {}
