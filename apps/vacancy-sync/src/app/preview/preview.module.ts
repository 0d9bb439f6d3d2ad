import { Module } from '@nestjs/common';
import { SourcesModule } from '../sources/sources.module';
import { VacancyPreviewHandler } from './vacancy-preview.handler';
import { VacancyPreviewService } from './vacancy-preview.service';
import { CommonModule } from '../common/common.module';

@Module({
  imports: [CommonModule, SourcesModule],
  controllers: [VacancyPreviewHandler],
  providers: [VacancyPreviewService],
})
export class PreviewModule {}
