/**
 * The demo account's connectors, made through the admin API like a user would: one on each registered ATS's
 * sandbox, as its declaration says (`demoConnector`: connected at once with client credentials, or waiting for
 * an interactive login). Made once; later starts reuse them.
 * Used by `npm start`, and by docker compose's `demo` step (`node dist/tools/demo-connectors.js`).
 */
import type { DemoConnector } from '@connector/ats-sandbox-core';
import { registeredSandboxes } from './sandboxes';

export interface DemoOptions {
  /** The registry's base address, e.g. http://127.0.0.1:3000. */
  registryUrl: string;
  adminKey: string;
  /** The connectors to make, each on its sandbox as the services reach it. */
  connectors: DemoConnector[];
}

/** The first key of `<accountId>:<key>[,…]`. */
export function firstAdminKey(adminApiKeys: string): string {
  return (adminApiKeys.split(',')[0] ?? '').split(':').slice(1).join(':');
}

export async function createDemoConnectors(options: DemoOptions): Promise<string[]> {
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${options.registryUrl}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${options.adminKey}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const existing = (await api('GET', '/connectors')).body.connectors as Array<{
    name: string;
    status: string;
  }>;
  const lines: string[] = [];
  for (const connector of options.connectors) {
    const found = existing?.find((c) => c.name === connector.name);
    if (found) {
      lines.push(`${connector.name.padEnd(20)} ${found.status}`);
      continue;
    }
    const created = await api('POST', '/connectors', connector);
    lines.push(
      created.status === 201
        ? `${connector.name.padEnd(20)} ${String(created.body.status)}`
        : `${connector.name.padEnd(20)} not created: ${String(created.body.message)}`,
    );
  }
  return lines;
}

/**
 * Compose: waits for the registry to be ready (auth-gateway may still be starting), then creates them, each
 * sandbox reached at SANDBOX_HOST on its default port.
 */
async function main(): Promise<void> {
  const registryUrl = process.env['REGISTRY_URL'] ?? 'http://127.0.0.1:3000';
  const host = process.env['SANDBOX_HOST'] ?? '127.0.0.1';
  const connectors = registeredSandboxes().map((sandbox) =>
    sandbox.demoConnector(`http://${host}:${sandbox.defaultPort}`),
  );
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      const lines = await createDemoConnectors({
        registryUrl,
        adminKey: firstAdminKey(process.env['ADMIN_API_KEYS'] ?? ''),
        connectors,
      });
      if (lines.every((line) => !line.includes('not created')) || Date.now() > deadline) {
        process.stdout.write(`${lines.join('\n')}\n`);
        process.exit(lines.some((line) => line.includes('not created')) ? 1 : 0);
      }
    } catch (error) {
      if (Date.now() > deadline) {
        process.stderr.write(
          `✖ the registry at ${registryUrl} did not answer: ${(error as Error).message}\n`,
        );
        process.exit(1);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
}

if (require.main === module) void main();
