import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Connection } from '../src/server/storage/db';
import { startPostgres, type TestPostgres } from './support/postgres';

// The service's PostgreSQL connection when the server goes away under a query in flight.
let postgres: TestPostgres;
let connection: Connection;
beforeAll(async () => {
  postgres = await startPostgres();
  connection = await connect({ dataDir: '', databaseUrl: await postgres.newDatabase() });
}, 60_000);
afterAll(async () => {
  await connection?.close();
  await postgres?.stop();
});

describe('the PostgreSQL connection', () => {
  const heardUncaught = async (during: () => Promise<void>): Promise<unknown[]> => {
    const uncaught: unknown[] = [];
    const hear = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', hear);
    try {
      await during();
      await new Promise((wake) => setTimeout(wake, 200));
    } finally {
      process.off('uncaughtException', hear);
    }
    return uncaught;
  };

  it('fails the query in flight when the server stops, keeps the process alive, and serves again when it is back', async () => {
    const uncaught = await heardUncaught(async () => {
      const inFlight = sql`SELECT pg_sleep(30)`.execute(connection.db).then(
        () => 'answered',
        () => 'failed',
      );
      await new Promise((wake) => setTimeout(wake, 300));
      await postgres.outage(async () => {
        expect(await inFlight).toBe('failed');
      });
    });
    expect(uncaught).toEqual([]);
    const { rows } = await sql<{ one: number }>`SELECT 1 AS one`.execute(connection.db);
    expect(rows).toEqual([{ one: 1 }]);
  });

  it('keeps the process alive when the server stops under a transaction waiting between two statements', async () => {
    const uncaught = await heardUncaught(async () => {
      let stopped!: () => void;
      const serverStopped = new Promise<void>((resolve) => (stopped = resolve));
      const transaction = connection.db
        .transaction()
        .execute(async (trx) => {
          await sql`SELECT 1`.execute(trx);
          // The client stays checked out, with no query in flight, while the server goes away.
          await serverStopped;
          await sql`SELECT 2`.execute(trx);
        })
        .then(
          () => 'committed',
          () => 'failed',
        );
      await new Promise((wake) => setTimeout(wake, 200));
      await postgres.outage(async () => {
        await new Promise((wake) => setTimeout(wake, 200));
        stopped();
        expect(await transaction).toBe('failed');
      });
    });
    expect(uncaught).toEqual([]);
    const { rows } = await sql<{ one: number }>`SELECT 1 AS one`.execute(connection.db);
    expect(rows).toEqual([{ one: 1 }]);
  });
});
