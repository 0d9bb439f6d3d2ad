import { type DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { dataSourceOptions, type PersistenceOptions, runMigrations } from './data-source';

export interface PersistenceModuleOptions<Deps extends unknown[]> {
  inject?: Array<abstract new (...args: never[]) => unknown>;
  useFactory: (...deps: Deps) => PersistenceOptions & { migrationsRun: boolean };
}

/** TypeORM for a service; pending migrations run at start (under a lock) unless switched off. */
@Module({})
export class PersistenceModule {
  static forRootAsync<Deps extends unknown[]>(options: PersistenceModuleOptions<Deps>): DynamicModule {
    let runAtStart = true;
    let shared: PersistenceOptions['shared'] = [];
    return {
      module: PersistenceModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: options.inject ?? [],
          useFactory: (...deps: unknown[]) => {
            const resolved = options.useFactory(...(deps as Deps));
            runAtStart = resolved.migrationsRun;
            shared = resolved.shared;
            return { ...dataSourceOptions(resolved), retryAttempts: 3, retryDelay: 1_000 };
          },
          dataSourceFactory: async (typeOrmOptions) => {
            if (!typeOrmOptions) throw new Error('TypeORM options missing');
            const dataSource = await new DataSource(typeOrmOptions).initialize();
            if (runAtStart) await runMigrations(dataSource, shared);
            return dataSource;
          },
        }),
      ],
      exports: [TypeOrmModule],
    };
  }
}
