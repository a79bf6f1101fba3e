import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { userContacts } from '../auth/index.ts';
import { settings } from '../../platform/db/platform-schema.ts';

export async function settingValue(db: DbOrTx, key: string): Promise<string | null> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key)).limit(1);
  return row?.value ?? null;
}

export interface UserSummary {
  id: number;
  uid: string;
  email: string;
  mobile: string;
}

export async function userSummaries(db: DbOrTx, ids: number[]): Promise<Map<number, UserSummary>> {
  const out = new Map<number, UserSummary>();
  if (!ids.length) return out;
  for (const [id, r] of await userContacts(db, ids)) out.set(id, { id, uid: r.uid, email: r.email ?? '', mobile: r.mobile ?? '' });
  return out;
}

export interface PageQuery {
  page: number;
  limit: number;
}
export const offsetOf = (p: PageQuery) => (p.page - 1) * p.limit;
export const countAll = sql<number>`count(*)::int`;
