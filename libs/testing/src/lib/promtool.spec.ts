import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findPromtool } from './promtool';

describe('findPromtool', () => {
  const dir = mkdtempSync(join(tmpdir(), 'promtool-'));
  const working = join(dir, 'promtool');
  const broken = join(dir, 'broken');
  writeFileSync(working, '#!/bin/sh\nexit 0\n');
  writeFileSync(broken, '#!/bin/sh\nexit 1\n');
  chmodSync(working, 0o755);
  chmodSync(broken, 0o755);

  it('takes the first candidate that answers --version', () => {
    expect(findPromtool({}, [join(dir, 'missing'), broken, working])).toBe(working);
    expect(findPromtool({}, [join(dir, 'missing'), broken])).toBeUndefined();
  });

  it('uses PROMTOOL alone when it is set', () => {
    expect(findPromtool({ PROMTOOL: working }, [])).toBe(working);
    expect(findPromtool({ PROMTOOL: broken }, [working])).toBeUndefined();
  });
});
