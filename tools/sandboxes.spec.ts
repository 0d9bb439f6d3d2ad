import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { atsRegistry } from '@connector/ats-registry';
import { registeredSandboxes } from './sandboxes';

describe(registeredSandboxes.name, () => {
  const sandboxes = registeredSandboxes();

  it("finds every registered ATS's sandbox in its folder, in the registry's order", () => {
    const withFolder = atsRegistry
      .types()
      .filter((type) =>
        existsSync(join(__dirname, '..', 'libs', 'ats', type, 'sandbox', 'src', 'sandbox.ts')),
      );
    expect(withFolder.length).toBeGreaterThan(1);
    expect(sandboxes.map((sandbox) => sandbox.type)).toEqual(withFolder);
  });

  it('knows no sandbox folder of an ATS the registry lacks', () => {
    const folders = readdirSync(join(__dirname, '..', 'libs', 'ats')).filter((name) =>
      existsSync(join(__dirname, '..', 'libs', 'ats', name, 'sandbox', 'src', 'sandbox.ts')),
    );
    expect(folders.filter((name) => !atsRegistry.has(name))).toEqual([]);
  });

  it('gives each sandbox a port of its own, and each a demo connector of its own type', () => {
    const ports = sandboxes.map((sandbox) => sandbox.defaultPort);
    expect(new Set(ports).size).toBe(ports.length);
    for (const sandbox of sandboxes) {
      expect(sandbox.demoConnector('http://127.0.0.1:1').type).toBe(sandbox.type);
    }
  });
});
