import type { ResolvedTestServices } from './lib/test-services';

export default async function globalTeardown(): Promise<void> {
  const services = (globalThis as { __TEST_SERVICES__?: ResolvedTestServices }).__TEST_SERVICES__;
  await services?.stop();
}
