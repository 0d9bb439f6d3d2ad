import { type DynamicModule, Module } from '@nestjs/common';
import { AtsRegistry } from '@connector/ats-core';
import { AdminPageAssets } from './admin-page.assets';
import { adminPageController } from './admin-page.controller';

/** The admin page: the connector set-up screens, served at ADMIN_PAGE_PATH on top of the admin API. */
@Module({})
export class AdminPageModule {
  static forRoot(config: { ADMIN_PAGE_PATH: string }): DynamicModule {
    const basePath = config.ADMIN_PAGE_PATH.replace(/\/+$/, '') || '/admin';
    return {
      module: AdminPageModule,
      controllers: [adminPageController(basePath)],
      providers: [
        {
          provide: AdminPageAssets,
          inject: [AtsRegistry],
          useFactory: (registry: AtsRegistry) => new AdminPageAssets(basePath, registry),
        },
      ],
    };
  }
}
