import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import type { AtsRegistry } from '@connector/ats-core';

/** A file the page loads, held in memory: the page is small and read once at boot. */
export interface Asset {
  body: Buffer;
  contentType: string;
}

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** The browser modules the page imports, served from node_modules (no build step, no CDN). */
const VENDOR: Record<string, () => string> = {
  'preact.mjs': () => require.resolve('preact'),
  'hooks.mjs': () => require.resolve('preact/hooks'),
  'htm.mjs': () => join(dirname(require.resolve('htm')), 'htm.mjs'),
};

/**
 * Everything the admin page serves: the HTML shell (with the base path filled in and its import map's
 * hash for the Content-Security-Policy), its own scripts and styles, and the vendor modules.
 */
export class AdminPageAssets {
  readonly html: string;
  readonly contentSecurityPolicy: string;
  private readonly files = new Map<string, Asset>();
  private readonly vendor = new Map<string, Asset>();

  constructor(
    readonly basePath: string,
    /** The ATSs whose source paths the mapping editor offers. */
    registry: AtsRegistry,
  ) {
    const publicDir = join(__dirname, 'public');
    for (const name of readdirSync(publicDir)) {
      const type = CONTENT_TYPES[extname(name)];
      if (type) this.files.set(name, { body: readFileSync(join(publicDir, name)), contentType: type });
    }
    for (const [name, resolve] of Object.entries(VENDOR)) {
      this.vendor.set(name, { body: readFileSync(resolve()), contentType: CONTENT_TYPES['.mjs'] as string });
    }
    const sourcePaths = JSON.stringify(
      Object.fromEntries(registry.all().map((ats) => [ats.type, [...ats.mapping.sourcePaths]])),
    );
    this.files.set('source-paths.json', {
      body: Buffer.from(sourcePaths),
      contentType: 'application/json; charset=utf-8',
    });
    // basePath is validated at boot (letters, digits, / _ -), so it is safe to place in HTML and JSON.
    this.html = readFileSync(join(publicDir, 'index.html'), 'utf8').replaceAll('__BASE__', basePath);
    const importMap = /<script type="importmap">([\s\S]*?)<\/script>/.exec(this.html)?.[1] ?? '';
    const importMapHash = createHash('sha256').update(importMap).digest('base64');
    this.contentSecurityPolicy = [
      "default-src 'self'",
      `script-src 'self' 'sha256-${importMapHash}'`,
      "style-src 'self'",
      "img-src 'self' data:",
      "connect-src 'self'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
      "form-action 'self'",
      "object-src 'none'",
    ].join('; ');
  }

  file(name: string): Asset | undefined {
    return name === 'index.html' ? undefined : this.files.get(name);
  }

  vendorModule(name: string): Asset | undefined {
    return this.vendor.get(name);
  }
}
