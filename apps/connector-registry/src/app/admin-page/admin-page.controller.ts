import { Controller, Get, NotFoundException, Param, Res, type Type } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { type Asset, AdminPageAssets } from './admin-page.assets';

/**
 * The admin page under `basePath` (ADMIN_PAGE_PATH, where the ATS-B login lands): the page itself is public
 * (it holds no data; every API call it makes needs the account's key), every other path under it is one
 * of its client-side routes.
 */
export function adminPageController(basePath: string): Type<unknown> {
  @ApiExcludeController()
  @Controller(basePath.replace(/^\//, ''))
  class AdminPageController {
    constructor(private readonly assets: AdminPageAssets) {}

    @Get('assets/:file')
    asset(@Param('file') file: string, @Res() response: Response): void {
      send(response, this.assets.file(file));
    }

    @Get('vendor/:file')
    vendor(@Param('file') file: string, @Res() response: Response): void {
      send(response, this.assets.vendorModule(file));
    }

    @Get(['', '*path'])
    page(@Res() response: Response): void {
      response
        .status(200)
        .set({
          'Content-Type': 'text/html; charset=utf-8',
          'Content-Security-Policy': this.assets.contentSecurityPolicy,
          'Cache-Control': 'no-cache',
          'X-Content-Type-Options': 'nosniff',
          'Referrer-Policy': 'same-origin',
        })
        .send(this.assets.html);
    }
  }
  return AdminPageController;
}

function send(response: Response, asset: Asset | undefined): void {
  if (!asset) throw new NotFoundException('No such file');
  response
    .status(200)
    .set({
      'Content-Type': asset.contentType,
      'Cache-Control': 'no-cache',
      'X-Content-Type-Options': 'nosniff',
    })
    .send(asset.body);
}
