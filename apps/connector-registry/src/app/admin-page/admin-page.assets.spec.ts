import { createHash } from 'node:crypto';
import { atsRegistry } from '@connector/ats-registry';
import { AdminPageAssets } from './admin-page.assets';

describe(AdminPageAssets.name, () => {
  const sut = new AdminPageAssets('/portal/admin', atsRegistry);

  it('fills the base path into the page and allows its import map by hash, no other inline script', () => {
    expect(sut.html).not.toContain('__BASE__');
    expect(sut.html).toContain('<meta name="admin-base" content="/portal/admin" />');
    expect(sut.html).toContain('"preact": "/portal/admin/vendor/preact.mjs"');
    const importMap = /<script type="importmap">([\s\S]*?)<\/script>/.exec(sut.html)?.[1] ?? '';
    const hash = createHash('sha256').update(importMap).digest('base64');
    expect(sut.contentSecurityPolicy).toContain(`script-src 'self' 'sha256-${hash}'`);
    expect(sut.contentSecurityPolicy).toContain("frame-ancestors 'none'");
  });

  it('serves its own files and the vendor modules by name only', () => {
    expect(sut.file('app.js')?.contentType).toMatch(/^text\/javascript/);
    expect(sut.file('style.css')?.contentType).toMatch(/^text\/css/);
    expect(JSON.parse(sut.file('source-paths.json')?.body.toString() ?? '{}')['ats-a']).toContain('Title');
    expect(sut.file('index.html')).toBeUndefined();
    expect(sut.file('../admin-page.module.ts')).toBeUndefined();
    for (const name of ['preact.mjs', 'hooks.mjs', 'htm.mjs']) {
      expect(sut.vendorModule(name)?.body.length).toBeGreaterThan(500);
    }
    expect(sut.vendorModule('preact.js')).toBeUndefined();
  });
});
