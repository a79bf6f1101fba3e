import { expect } from 'vitest';
import { callFrom, randomIp } from '../apps/server/test/auth-helpers.ts';
import { hashPassword } from '../apps/server/src/modules/auth/password.ts';
import { staff } from '../apps/server/src/platform/db/schema.ts';
import { DESKTOP, newPage, type E2E } from './harness.ts';

let staffCount = 0;

/** A new staff member with these roles, signed in through the API: their token, and the back office's stored session for a page. */
export async function staffMember(e2e: E2E, roles: string[], label: string) {
  const email = `${label.toLowerCase().replace(/\W+/g, '-')}-${roles.join('-')}-${++staffCount}@test.local`;
  await e2e.server.ctx.db
    .insert(staff)
    .values({ email, name: `${label} ${roles.join('+')}`, passwordHash: await hashPassword('staff-password-1'), roles });
  const res = await callFrom(e2e.server, randomIp(), 'POST', '/api/admin/login', { email, password: 'staff-password-1' });
  expect(res.code).toBe(1);
  return {
    token: res.data.token as string,
    session: JSON.stringify({ state: { token: res.data.token, staff: res.data.staff }, version: 0 }),
  };
}

/** A desktop page in `lang` already signed in to the back office as `member`. */
export async function staffTab(e2e: E2E, member: { session: string }, lang: string) {
  const opened = await newPage(e2e, DESKTOP, { lang });
  await opened.context.addInitScript((value) => sessionStorage.setItem('staff_session', value), member.session);
  return opened;
}
