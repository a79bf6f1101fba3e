import { randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { dec } from '@tp/contract/decimal';
import { login as staffLogin } from '@tp/contract/endpoints/admin';
import { expect } from 'vitest';
import { call, type TestApp } from '../../../test/test-app.ts';
import { identityVerifications, ledgerAccounts, staff, uploads } from '../../platform/db/schema.ts';
import { hashPassword } from '../auth/password.ts';
import { insertUser } from '../auth/user-repository.ts';
import { auditLedger } from '../ledger/ledger-service.ts';

/** Set-up shared by the funding API tests: users, money, uploads and staff, made directly. */

export interface TestUser {
  id: number;
  token: string;
}

export async function newUser(t: TestApp, opts: { demo?: boolean; verified?: boolean; balance?: string } = {}): Promise<TestUser> {
  const isDemo = opts.demo ?? false;
  const user = await insertUser(t.ctx.db, { email: `f${randomBytes(6).toString('hex')}@example.com`, isDemo });
  await t.ctx.services.ledger.openUserAccounts(t.ctx.db, user.id, isDemo);
  if (opts.verified ?? true) {
    await t.ctx.db.insert(identityVerifications).values({
      userId: user.id,
      name: 'Test User',
      cardId: 'A1234567',
      frontPic: '/uploads/f.png',
      reversePic: '/uploads/r.png',
      reviewStatus: 2,
    });
  }
  if (opts.balance) await fund(t, user.id, opts.balance);
  return { id: user.id, token: await t.ctx.services.sessions.create({ userId: user.id }) };
}

/** Puts money on a user's cash the way a deposit would, straight through the ledger. */
export async function fund(t: TestApp, userId: number, amount: string): Promise<void> {
  await t.ctx.db.transaction((tx) =>
    t.ctx.services.ledger.post(tx, {
      kind: 'test_funding',
      isDemo: false,
      postings: [
        { account: { userId, kind: 'cash' }, amount, type: 'deposit' },
        { account: { house: 'deposit_clearing' }, amount: dec(amount).neg(), type: 'deposit' },
      ],
    }),
  );
}

export async function cashOf(t: TestApp, userId: number): Promise<string> {
  return (await t.ctx.services.ledger.balances(t.ctx.db, userId)).balance.toString();
}

/** A real-money house account's balance: the sum of its shards. */
export async function houseBalance(t: TestApp, kind: string): Promise<string> {
  const rows = await t.ctx.db
    .select({ balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.kind, kind), isNull(ledgerAccounts.userId), eq(ledgerAccounts.isDemo, false)));
  return rows.reduce((total, row) => total.plus(row.balance), dec(0)).toString();
}

/** An image this user uploaded: its row as POST /api/common/image_upload records it, and the signed URL it answers. */
export async function uploaded(t: TestApp, userId: number): Promise<string> {
  const key = `${randomBytes(12).toString('hex')}.png`;
  await t.ctx.db.insert(uploads).values({ userId, key, mime: 'image/png', size: 100 });
  return t.ctx.services.uploads.signedUrl(key);
}

/** A signed-in staff member with these roles; ['admin'] uses the bootstrap administrator. */
export async function staffToken(t: TestApp, roles: string[]): Promise<string> {
  let email = 'admin@test.local';
  let password = 'admin-password-1';
  if (!roles.includes('admin')) {
    email = `s${randomBytes(6).toString('hex')}@test.local`;
    password = 'staff-password-1';
    await t.ctx.db.insert(staff).values({ email, name: roles.join(' '), passwordHash: await hashPassword(password), roles });
  }
  const res = await call(t, staffLogin.method, staffLogin.path, { email, password });
  expect(res.code).toBe(1);
  return res.data.token as string;
}

export async function expectBooksBalanced(t: TestApp): Promise<void> {
  expect((await auditLedger(t.ctx.db)).problems).toEqual([]);
}
