import { Module } from '@nestjs/common';

/**
 * Empty on purpose: what it held is VacancySyncGlobalModule's, which is global. It stays only while
 * runs/runs.module.ts (being changed on another branch) still imports it; delete it with that import.
 */
@Module({})
export class CommonModule {}
