import { execFileSync } from 'node:child_process';

export const LOCAL_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';
export const LOCAL_RABBITMQ_URL = 'amqp://guest:guest@127.0.0.1:5672';

export interface ResolvedTestServices {
  databaseUrl: string;
  rabbitmqUrl: string;
  source: 'environment' | 'testcontainers' | 'local';
  stop(): Promise<void>;
}

/**
 * Where integration tests find Postgres and RabbitMQ: the URLs in the environment when given; otherwise
 * containers when a container runtime answers; otherwise the local services this machine runs.
 */
export async function resolveTestServices(): Promise<ResolvedTestServices> {
  const fromEnv = { db: process.env.DATABASE_URL, mq: process.env.RABBITMQ_URL };
  if (fromEnv.db || fromEnv.mq || !containerRuntimeAvailable()) {
    return {
      databaseUrl: fromEnv.db ?? LOCAL_DATABASE_URL,
      rabbitmqUrl: fromEnv.mq ?? LOCAL_RABBITMQ_URL,
      source: fromEnv.db || fromEnv.mq ? 'environment' : 'local',
      stop: async () => undefined,
    };
  }
  const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
  const { RabbitMQContainer } = await import('@testcontainers/rabbitmq');
  const [pg, mq] = await Promise.all([
    new PostgreSqlContainer('postgres:15-alpine').start(),
    new RabbitMQContainer('rabbitmq:3.13-alpine').start(),
  ]);
  return {
    databaseUrl: pg.getConnectionUri(),
    rabbitmqUrl: mq.getAmqpUrl(),
    source: 'testcontainers',
    stop: async () => {
      await Promise.all([pg.stop(), mq.stop()]);
    },
  };
}

function containerRuntimeAvailable(): boolean {
  try {
    execFileSync('docker', ['info'], { stdio: 'ignore', timeout: 5_000 });
    return true;
  } catch {
    return false;
  }
}
