import { and, desc, eq } from 'drizzle-orm';
import sharp from 'sharp';
import type { BrowserContext, Page } from 'playwright-core';
import { outbox } from '../apps/server/src/platform/db/schema.ts';
import { fund, newUser } from '../apps/server/src/modules/funding/test-helpers.ts';
import { DESKTOP, newPage, PHONE, type E2E } from './harness.ts';

/** The newest code sent to this destination, read from the server's outbox. */
export async function codeFromOutbox(e2e: E2E, destination: string): Promise<string> {
  const rows = await e2e.server.ctx.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.destination, destination)))
    .orderBy(desc(outbox.id))
    .limit(1);
  const match = /\b(\d{6})\b/.exec(`${rows[0]?.subject ?? ''} ${rows[0]?.body ?? ''}`);
  if (!match) throw new Error(`no code in the outbox for ${destination}`);
  return match[1]!;
}

export interface SignedInUser {
  id: number;
  token: string;
  email: string;
}

/** A real user made on the server (verified identity and a balance when asked), signed in on a new page. */
export async function signedInPage(
  e2e: E2E,
  opts: { device?: typeof PHONE | typeof DESKTOP; lang?: string; verified?: boolean; balance?: string; demo?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page; user: SignedInUser }> {
  const made = await newUser(e2e.server, { verified: opts.verified ?? false, demo: opts.demo ?? false });
  if (opts.balance) await fund(e2e.server, made.id, opts.balance);
  const info = await e2e.server.app.inject({ method: 'GET', url: '/api/user/info', headers: { authorization: made.token } });
  const user = (info.json() as { data: { email: string; uid: string; is_demo: number; invite_code: string; id: number } }).data;
  const { context, page } = await newPage(e2e, opts.device ?? PHONE, { lang: opts.lang ?? 'en' });
  await context.addInitScript(
    ({ token, user: u }) => {
      if (!sessionStorage.getItem('e2e-session-set')) {
        localStorage.setItem('session', JSON.stringify({ state: { token, user: u }, version: 0 }));
        sessionStorage.setItem('e2e-session-set', '1');
      }
    },
    { token: made.token, user },
  );
  return { context, page, user: { id: made.id, token: made.token, email: user.email } };
}

/** A small PNG file made in the test, to upload through a file input. */
export async function pngFile(name: string, color: { r: number; g: number; b: number }) {
  const buffer = await sharp({ create: { width: 64, height: 40, channels: 3, background: color } }).png().toBuffer();
  return { name, mimeType: 'image/png', buffer };
}

/** Waits for a toast (or any live text) to show this text. */
export async function seeText(page: Page, text: string | RegExp, timeout = 10_000) {
  await page.getByText(text).first().waitFor({ timeout });
}
