import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Parser } from '@asyncapi/parser';
import { parse } from 'yaml';
import { Exchange, MESSAGE_DATA, MESSAGE_EXCHANGE, type MessageType } from '@connector/contracts';
import { ADMIN_API_TYPES_PATH } from './admin-api-types';
import { adminApiDts, ASYNCAPI_PATH, asyncApiYaml, OPENAPI_PATH, openApiJson, ROOT } from './contract-docs';

const REGENERATE =
  'the committed document differs from the code: run `npm run contracts` and commit the result';

describe("the contract documents (docs/asyncapi.yaml, docs/openapi.json, the admin page's admin-api.d.ts)", () => {
  it('docs/asyncapi.yaml is what libs/contracts generates', () => {
    expect({ file: readFileSync(ASYNCAPI_PATH, 'utf8'), hint: REGENERATE }).toEqual({
      file: asyncApiYaml(),
      hint: REGENERATE,
    });
  });

  it('docs/openapi.json is what connector-registry generates', async () => {
    expect({ file: readFileSync(OPENAPI_PATH, 'utf8'), hint: REGENERATE }).toEqual({
      file: await openApiJson(),
      hint: REGENERATE,
    });
  }, 30_000);

  it("the admin page's admin-api.d.ts is what docs/openapi.json generates", () => {
    expect({ file: readFileSync(ADMIN_API_TYPES_PATH, 'utf8'), hint: REGENERATE }).toEqual({
      file: adminApiDts(readFileSync(OPENAPI_PATH, 'utf8')),
      hint: REGENERATE,
    });
  });

  it('the AsyncAPI document parses without errors or warnings', async () => {
    const { document, diagnostics } = await new Parser().parse(readFileSync(ASYNCAPI_PATH, 'utf8'));
    const problems = diagnostics
      .filter((d) => d.severity <= 1)
      .map((d) => `${d.path.join('.')}: ${d.message}`);
    expect(problems).toEqual([]);
    expect(document).toBeDefined();
  }, 30_000);

  it('documents every message type of both public exchanges on its routing key, and no internal one', () => {
    const doc = parse(readFileSync(ASYNCAPI_PATH, 'utf8')) as {
      channels: Record<string, { address: string; bindings: { amqp: { exchange: { name: string } } } }>;
    };
    const documented = Object.values(doc.channels).map(
      (c) => `${c.bindings.amqp.exchange.name} ${c.address}`,
    );
    const expected = (Object.keys(MESSAGE_DATA) as MessageType[])
      .filter((type) => MESSAGE_EXCHANGE[type] !== Exchange.Internal)
      .map((type) => `${MESSAGE_EXCHANGE[type]} ${type}`);
    expect(documented.sort()).toEqual(expected.sort());
    expect(documented.some((c) => c.startsWith(Exchange.PlatformEvents))).toBe(true);
    expect(documented.some((c) => c.startsWith(Exchange.ConnectorEvents))).toBe(true);
  });

  it('the OpenAPI document is valid OpenAPI', () => {
    const run = spawnSync(process.execPath, [join(ROOT, 'tools', 'validate-openapi.mjs'), OPENAPI_PATH], {
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('gives every successful admin API response with a body a schema', () => {
    const doc = JSON.parse(readFileSync(OPENAPI_PATH, 'utf8')) as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: unknown }> }>>;
    };
    const missing: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          if (/^2\d\d$/.test(status) && status !== '204' && !response.content) {
            missing.push(`${method.toUpperCase()} ${path} ${status}`);
          }
        }
      }
    }
    expect(missing).toEqual([]);
    expect(Object.keys(doc.paths)).toContain('/api/v1/connectors');
  });
});
