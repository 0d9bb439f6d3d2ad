import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Expired requests were kept as dead letters, `auth.credentials.save` and `auth.connection.test` with the
 * customer's ATS-A client secret in clear (issue 26): gone, as the failure log no longer keeps any request.
 */
export class NoDeadLettersOfRequests1763900002601 implements MigrationInterface {
  name = 'NoDeadLettersOfRequests1763900002601';

  async up(queryRunner: QueryRunner): Promise<void> {
    const requests = [
      'credentials.requested',
      'auth.connection.test',
      'auth.credentials.save',
      'auth.authorization.start',
      'auth.authorization.complete',
      'auth.credentials.erase',
      'vacancy.preview.requested',
      'connector.lookup.requested',
      'connectors.by-account.requested',
    ];
    await queryRunner.query(`DELETE FROM "dead_letter" WHERE "routing_key" = ANY($1) OR "type" = ANY($1)`, [
      requests,
    ]);
  }

  async down(): Promise<void> {
    /* what is deleted stays deleted */
  }
}
