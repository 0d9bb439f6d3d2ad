import amqplib from 'amqplib';

/**
 * Creates the shared exchanges `names` (libs/contracts' Exchange), as the broker set-up does (definitions,
 * `npm start`): our services only check that they exist. `url` is an administrator's (guest here).
 */
export async function createExchanges(url: string, names: readonly string[]): Promise<void> {
  const connection = await amqplib.connect(url);
  try {
    const channel = await connection.createChannel();
    for (const name of names) await channel.assertExchange(name, 'topic', { durable: true });
  } finally {
    await connection.close().catch(() => undefined);
  }
}
