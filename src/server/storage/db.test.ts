import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { partFailureOf } from '../outages';
import { connect, type Connection } from './db';

let dir: string;
let connection: Connection;
afterEach(async () => {
  await connection.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('SQLite out of room', () => {
  it('fails a transaction with SQLITE_FULL (113), not with the rollback SQLite already did', async () => {
    dir = mkdtempSync(join(tmpdir(), 'ovu-db-'));
    connection = await connect({ dataDir: dir, databaseUrl: undefined });
    const { db } = connection;
    await sql`CREATE TABLE filler (data BLOB)`.execute(db);
    // A database that may not grow past its size now: SQLite's own SQLITE_FULL, as on a full disk.
    const [{ page_count: pages }] = (await sql<{ page_count: number }>`PRAGMA page_count`.execute(db)).rows as [{ page_count: number }];
    await sql.raw(`PRAGMA max_page_count = ${pages + 2}`).execute(db);

    const failure = await db
      .transaction()
      .execute(async (tx) => {
        for (let i = 0; i < 10; i++) await sql`INSERT INTO filler VALUES (randomblob(65536))`.execute(tx);
      })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'SQLITE_FULL' });
    expect(partFailureOf(failure)?.code).toBe('113');

    // Nothing of it stayed, and the connection takes the next transaction.
    expect((await sql<{ n: number }>`SELECT count(*) AS n FROM filler`.execute(db)).rows[0]!.n).toBe(0);
    await sql.raw('PRAGMA max_page_count = 1073741823').execute(db);
    await db.transaction().execute((tx) => sql`INSERT INTO filler VALUES (x'00')`.execute(tx));
    expect((await sql<{ n: number }>`SELECT count(*) AS n FROM filler`.execute(db)).rows[0]!.n).toBe(1);
  });
});
