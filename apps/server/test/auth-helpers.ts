import { randomInt } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import { outbox, staff } from '../src/platform/db/schema.ts';
import { hashPassword } from '../src/modules/auth/password.ts';
import type { TestApp, CallOptions } from './test-app.ts';

/** A fresh client address, so per-IP limits of one test do not spill into another. */
export const randomIp = () => `10.${randomInt(0, 256)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;

export const uniqueEmail = (tag = 'u') => `${tag}.${Date.now().toString(36)}${randomInt(1e9)}@example.com`;

/** Like `call`, from a chosen client IP. */
export async function callFrom<T = any>(
  app: TestApp,
  ip: string,
  method: 'GET' | 'POST',
  url: string,
  params: Record<string, unknown> = {},
  opts: CallOptions = {},
): Promise<{ status: number; code: number; msg: string; data: T }> {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = opts.token;
  if (opts.lang) headers.lang = opts.lang;
  const entries = Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => [k, String(v)] as [string, string]);
  const qs = new URLSearchParams(entries);
  const res =
    method === 'GET'
      ? await app.app.inject({ method, url: `${url}?${qs}`, headers, remoteAddress: ip })
      : await app.app.inject({
          method,
          url,
          headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
          payload: qs.toString(),
          remoteAddress: ip,
        });
  return { status: res.statusCode, ...(res.json() as { code: number; msg: string; data: T }) };
}

/** The code in the newest outbox message to a destination (no mail or SMS provider configured in tests). */
export async function latestCode(app: TestApp, destination: string): Promise<string | null> {
  await app.ctx.services.codes.settled();
  const [row] = await app.ctx.db.select().from(outbox).where(eq(outbox.destination, destination)).orderBy(desc(outbox.id)).limit(1);
  return row ? (/\b(\d{6})\b/.exec(row.body)?.[1] ?? null) : null;
}

export async function outboxCount(app: TestApp, destination: string): Promise<number> {
  await app.ctx.services.codes.settled();
  return (await app.ctx.db.select({ id: outbox.id }).from(outbox).where(eq(outbox.destination, destination))).length;
}

/** Lets a destination receive a new code at once, as if its 60 s resend wait had passed. */
export async function allowNewCode(app: TestApp, destination: string): Promise<void> {
  await app.ctx.services.throttle.reset(`code:${destination}`);
}

export const STRONG_PASSWORD = 'Tr4ding-Desk-42';

/** Registers a real account by email through the public calls; answers its session. */
export async function registerByEmail(app: TestApp, opts: { email?: string; password?: string; inviteCode?: string } = {}) {
  const email = opts.email ?? uniqueEmail();
  const password = opts.password ?? STRONG_PASSWORD;
  const ip = randomIp();
  const sent = await callFrom(app, ip, 'POST', '/api/notify/send_email', { to: email, type: 1 });
  if (sent.code !== 1) throw new Error(`send_email failed: ${sent.msg}`);
  const code = await latestCode(app, email);
  const res = await callFrom(app, ip, 'POST', '/api/user/register', {
    type: 'email',
    account: email,
    password,
    re_password: password,
    sms_code: code,
    invite_code: opts.inviteCode,
  });
  if (res.code !== 1) throw new Error(`register failed: ${res.msg}`);
  await allowNewCode(app, email);
  return { email, password, token: res.data.token as string, user: res.data.user as { id: number; uid: string; invite_code: string } };
}

/** A staff member with the given roles, signed in. */
export async function staffSession(app: TestApp, roles: string[]) {
  const email = uniqueEmail('staff');
  await app.ctx.db.insert(staff).values({ email, name: roles.join('+'), passwordHash: await hashPassword('staff-password-1'), roles });
  const res = await callFrom(app, randomIp(), 'POST', '/api/admin/login', { email, password: 'staff-password-1' });
  return res.data.token as string;
}
