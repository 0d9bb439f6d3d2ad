import { type DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { dataSourceOptions, type PersistenceOptions, runMigrations } from './data-source';
import { assertDatabaseRights, DatabaseRightsError } from './service-roles';

export interface PersistenceModuleOptions<Deps extends unknown[]> {
  inject?: Array<abstract new (...args: never[]) => unknown>;
  useFactory: (...deps: Deps) => PersistenceOptions & { migrationsRun: boolean };
}

/**
 * TypeORM for a service; pending migrations run at start (under a lock) unless switched off. Then its role's
 * rights on its tables are checked: one it lacks fails the start (DatabaseRightsError), not a request later.
 */
@Module({})
export class PersistenceModule {
  static forRootAsync<Deps extends unknown[]>(options: PersistenceModuleOptions<Deps>): DynamicModule {
    let runAtStart = true;
    let schema: Pick<PersistenceOptions, 'entities' | 'shared' | 'tables'> = { entities: [] };
    return {
      module: PersistenceModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: options.inject ?? [],
          useFactory: (...deps: unknown[]) => {
            const resolved = options.useFactory(...(deps as Deps));
            runAtStart = resolved.migrationsRun;
            schema = resolved;
            return {
              ...dataSourceOptions(resolved),
              retryAttempts: 3,
              retryDelay: 1_000,
              // Rights do not come by waiting.
              toRetry: (error: unknown) => !(error instanceof DatabaseRightsError),
            };
          },
          dataSourceFactory: async (typeOrmOptions) => {
            if (!typeOrmOptions) throw new Error('TypeORM options missing');
            const dataSource = await new DataSource(typeOrmOptions).initialize();
            if (runAtStart) await runMigrations(dataSource, schema.shared);
            try {
              await assertDatabaseRights(dataSource, schema);
            } catch (error) {
              await dataSource.destroy();
              throw error;
            }
            return dataSource;
          },
        }),
      ],
      exports: [TypeOrmModule],
    };
  }
}
