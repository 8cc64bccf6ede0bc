import type { Kysely } from 'kysely';
import type { Schema } from './schema';

/** What the service keeps once for all its instances (never shown in a reply or a log line). */
export type StoredSettingName = 'ticket_key' | 'demo_app';

/**
 * The owner of the `settings` table: values every instance on one database must agree on (the
 * upload ticket key, the demo app). Each is made once: the first instance to offer one stores it,
 * and every instance, that one included, reads back the stored value.
 */
export class SettingStore {
  constructor(private readonly db: Kysely<Schema>) {}

  /**
   * The stored value of `name`, storing `offered` first when there is none. Insert-if-absent is
   * one statement, so instances starting together all end with the same value.
   */
  async settle(name: StoredSettingName, offered: string, now: number): Promise<string> {
    await this.db
      .insertInto('settings')
      .values({ name, value: offered, created_at: now })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const row = await this.db.selectFrom('settings').select('value').where('name', '=', name).executeTakeFirstOrThrow();
    return row.value;
  }
}
