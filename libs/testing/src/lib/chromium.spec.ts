import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findChromium } from './chromium';

describe('findChromium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'chromium-'));
  const executable = join(dir, 'chrome');
  const plain = join(dir, 'not-executable');
  writeFileSync(executable, '#!/bin/sh\n');
  chmodSync(executable, 0o755);
  writeFileSync(plain, '');
  chmodSync(plain, 0o644);

  it('takes the first executable candidate', () => {
    expect(findChromium({}, [join(dir, 'missing'), plain, executable])).toBe(executable);
  });

  it('answers undefined when no candidate is executable', () => {
    expect(findChromium({}, [join(dir, 'missing'), plain])).toBeUndefined();
  });

  it('uses CHROMIUM_PATH alone when it is set', () => {
    expect(findChromium({ CHROMIUM_PATH: executable }, [])).toBe(executable);
    // A wrong CHROMIUM_PATH is reported, not replaced by another browser found elsewhere.
    expect(findChromium({ CHROMIUM_PATH: join(dir, 'missing') }, [executable])).toBeUndefined();
  });
});
