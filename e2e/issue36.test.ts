import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngFile, signedInPage } from './account-helpers.ts';
import { jsErrors, newPage, PHONE, startE2E, type E2E } from './harness.ts';

const POLL = { timeout: 15_000 };
const ADMIN = { email: 'admin@test.local', password: 'admin-password-1' };

/** An <img> that the browser fetched and decoded: its natural width is above zero. */
const loaded = (img: Locator) => img.evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth);

/** Issue 36: defects found in the web app, each in the built app in Chromium. */
describe('issue 36 defects', () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
  });
  afterAll(async () => e2e?.close());

  const staffSignIn = async (page: Page) => {
    await page.goto('/admin');
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  };

  it('1. shows an image sent in the support chat to the trader and to staff, and not to another trader (phone, en)', async () => {
    const { context, page, user } = await signedInPage(e2e, { device: PHONE, lang: 'en' });
    await page.goto('/mine/chat');
    await page.getByText('No messages yet', { exact: false }).waitFor();
    await page.getByLabel('Attach an image').setInputFiles(await pngFile('receipt.png', { r: 20, g: 120, b: 200 }));
    const conversation = page.getByRole('list', { name: 'Conversation with customer service' });
    const mine = conversation.getByRole('img', { name: 'Attached image' });
    await mine.waitFor();
    await expect.poll(() => loaded(mine), POLL).toBeGreaterThan(0);
    // From the history too, after a reload.
    await page.reload();
    await expect.poll(() => loaded(conversation.getByRole('img', { name: 'Attached image' })), POLL).toBeGreaterThan(0);
    const src = (await conversation.getByRole('img', { name: 'Attached image' }).getAttribute('src'))!;
    expect(jsErrors(page)).toEqual([]);
    await context.close();

    // Another trader cannot fetch it by its path, with their own session.
    const path = new URL(src, e2e.baseUrl).pathname;
    const other = await signedInPage(e2e, { device: PHONE, lang: 'en' });
    const res = await fetch(`${e2e.baseUrl}${path}`, { headers: { authorization: other.user.token } });
    expect(res.status).toBe(404);
    await other.context.close();

    // Staff see it in the support desk.
    const staff = await newPage(e2e, PHONE, { lang: 'en' });
    await staffSignIn(staff.page);
    await staff.page.goto('/admin/support');
    await staff.page.getByRole('button', { name: user.email }).click();
    const thread = staff.page.getByRole('list', { name: 'Messages' });
    const seen = thread.getByRole('img', { name: 'Image sent in the chat' });
    await seen.waitFor();
    await expect.poll(() => loaded(seen), POLL).toBeGreaterThan(0);
    expect(jsErrors(staff.page)).toEqual([]);
    await staff.context.close();
  });
});
