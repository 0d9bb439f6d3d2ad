/**
 * The public contract as documents other teams build against, generated from the code so they cannot drift:
 * docs/asyncapi.yaml from libs/contracts (every message type of the two public exchanges, its `data` class,
 * the envelope), docs/openapi.json from connector-registry's controllers, and from that the admin page's
 * admin-api.d.ts. `npm run contracts` writes them; tools/contract-docs.spec.ts fails when the committed files
 * differ from what the code generates.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import {
  EnvelopeDto,
  Exchange,
  type ExchangeName,
  jsonSchemasOf,
  type JsonSchema,
  MESSAGE_DATA,
  MESSAGE_EXCHANGE,
  type MessageType,
  schemaNameOf,
  SUPPORTED_VERSION,
} from '@connector/contracts';
import { withKnownAtsTypes } from '@connector/ats-registry';
import { buildOpenApiDocument } from '../apps/connector-registry/src/app/openapi-document';
import { adminApiTypes } from './admin-api-types';

export const ROOT = join(__dirname, '..');
export const ASYNCAPI_PATH = join(ROOT, 'docs', 'asyncapi.yaml');
export const OPENAPI_PATH = join(ROOT, 'docs', 'openapi.json');

/** The exchanges other teams use; `connector.internal` is between our own services and stays out. */
const PUBLIC_EXCHANGES: readonly ExchangeName[] = [Exchange.PlatformEvents, Exchange.ConnectorEvents];

/** One line per message type for readers (CONTRACT.md's tables); a type without one is still documented. */
const SUMMARIES: Partial<Record<MessageType, string>> = {
  'candidate.created': "A candidate's whole current profile; goes to every enabled connector of the account.",
  'candidate.updated':
    "A candidate's whole current profile after a change; only changed fields reach the ATS.",
  'application.submitted': 'An application to one or several vacancies, each as a connector published it.',
  'application.updated': 'An application after verified changes (e.g. its answers).',
  'document.uploaded': 'A CV or other file the connector downloads from `url` and checks against `sha256`.',
  'candidate.erased':
    "The platform erased this person: the connector services remove the personal data they hold of them and refuse their later events (the customer's ATS is not touched).",
  'vacancy.upserted':
    'A live vacancy, new or with changed content (mapping applied), enriched with contact and company.',
  'vacancy.closed': 'A vacancy that was live and no longer is.',
  'candidate.synced': 'A candidate reached the ATS (created or updated).',
  'application.synced': 'An application reached the ATS for one vacancy.',
  'document.synced': 'A document reached the ATS, or was skipped with a reason.',
  'run.completed': 'A data fetch ("run") ended, also runs the service started on its schedule.',
  'operation.failed':
    'A message could not be handled: invalid (never retried) or out of retries; it is in the failure log.',
  'operation.unsupported':
    "A message the connector's ATS cannot take (e.g. applications on an ATS whose capabilities lack them).",
  'connector.status_changed':
    'A connector was created, authorized, lost its authorization, was enabled, disabled or deleted.',
  'candidate.erasure_completed':
    'Every connector service erased what it held of a candidate after `candidate.erased`; counts per kind of record.',
};

const AMQP_BINDING_VERSION = '0.3.0';

function packageVersion(): string {
  return (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

/** `connector.status_changed` → `connectorStatusChanged` (ids AsyncAPI accepts as component keys). */
function idOf(type: string): string {
  return type.replace(/[._-]+([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

function pascal(type: string): string {
  const id = idOf(type);
  return id.charAt(0).toUpperCase() + id.slice(1);
}

function asyncApiDocument(): Record<string, unknown> {
  const types = (Object.keys(MESSAGE_DATA) as MessageType[]).filter((type) =>
    PUBLIC_EXCHANGES.includes(MESSAGE_EXCHANGE[type]),
  );
  const dataSchemas = jsonSchemasOf([EnvelopeDto, ...types.map((type) => MESSAGE_DATA[type])]);
  const envelope = dataSchemas['Envelope'] as JsonSchema;
  delete dataSchemas['Envelope'];
  withKnownAtsTypes(dataSchemas);
  const schemas: Record<string, JsonSchema> = {
    Envelope: {
      ...envelope,
      description:
        'Every message: plain JSON, content type application/json, persistent, AMQP message_id = id, ' +
        'routing key = type. `correlationId` is copied onto every event a message causes.',
    },
  };
  const channels: Record<string, unknown> = {};
  const operations: Record<string, unknown> = {};
  const messages: Record<string, unknown> = {};
  for (const type of types) {
    const id = idOf(type);
    const exchange = MESSAGE_EXCHANGE[type];
    const incoming = exchange === Exchange.PlatformEvents;
    const messageSchema = `${pascal(type)}Message`;
    schemas[messageSchema] = {
      allOf: [
        { $ref: '#/components/schemas/Envelope' },
        {
          type: 'object',
          properties: {
            type: { const: type },
            version: { type: 'integer', minimum: 1, maximum: SUPPORTED_VERSION },
            data: { $ref: `#/components/schemas/${schemaNameOf(MESSAGE_DATA[type])}` },
          },
        },
      ],
    };
    messages[id] = {
      name: type,
      title: type,
      ...(SUMMARIES[type] ? { summary: SUMMARIES[type] } : {}),
      contentType: 'application/json',
      payload: { $ref: `#/components/schemas/${messageSchema}` },
      correlationId: { location: '$message.payload#/correlationId' },
      bindings: { amqp: { messageType: type, bindingVersion: AMQP_BINDING_VERSION } },
    };
    channels[id] = {
      address: type,
      description: `Routing key \`${type}\` on the durable topic exchange \`${exchange}\`.`,
      messages: { [id]: { $ref: `#/components/messages/${id}` } },
      bindings: {
        amqp: {
          is: 'routingKey',
          exchange: { name: exchange, type: 'topic', durable: true, autoDelete: false, vhost: '/' },
          bindingVersion: AMQP_BINDING_VERSION,
        },
      },
    };
    operations[`${incoming ? 'receive' : 'send'}${pascal(type)}`] = {
      action: incoming ? 'receive' : 'send',
      channel: { $ref: `#/channels/${id}` },
      summary: incoming
        ? `Platform microservices publish it to ${exchange}; the connector services consume it.`
        : `The connector services publish it to ${exchange}; platform microservices consume it.`,
      messages: [{ $ref: `#/channels/${id}/messages/${id}` }],
      bindings: {
        amqp: incoming
          ? { ack: true, bindingVersion: AMQP_BINDING_VERSION }
          : { deliveryMode: 2, bindingVersion: AMQP_BINDING_VERSION },
      },
    };
  }
  Object.assign(schemas, dataSchemas);
  return {
    asyncapi: '3.1.0',
    info: {
      title: 'ATS connector service: messages',
      version: packageVersion(),
      description:
        'The messages between the platform and the connector services (docs/contract.md section 1). ' +
        'Delivery is at least once, in any order; the services make every effect happen once. Unknown ' +
        'fields are ignored, so fields may be added; removing or renaming one needs a new `version`. ' +
        `Generated from libs/contracts by \`npm run contracts\`; this code reads versions up to ${SUPPORTED_VERSION}.`,
    },
    defaultContentType: 'application/json',
    servers: {
      rabbitmq: {
        host: 'rabbitmq:5672',
        protocol: 'amqp',
        protocolVersion: '0.9.1',
        description: "The platform's RabbitMQ broker (RABBITMQ_URL).",
      },
    },
    channels,
    operations,
    components: { messages, schemas },
  };
}

export function asyncApiYaml(): string {
  return (
    '# Generated from libs/contracts by `npm run contracts`. Do not edit: change the code and re-run it.\n' +
    stringify(asyncApiDocument(), { lineWidth: 0, aliasDuplicateObjects: false })
  );
}

export async function openApiJson(): Promise<string> {
  return `${JSON.stringify(await buildOpenApiDocument(), null, 2)}\n`;
}

/** The admin page's API types, generated from the OpenAPI document (docs/openapi.json's text). */
export function adminApiDts(openApi: string): string {
  return adminApiTypes(JSON.parse(openApi) as Parameters<typeof adminApiTypes>[0]);
}
