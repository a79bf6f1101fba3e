/**
 * Accounts benchmark through the real routes (app.inject, no network): password logins (scrypt
 * bound), captcha images, image uploads (decode + re-encode) and token-authenticated calls. On
 * PGlite and, when BENCH_DATABASE_URL or TEST_DATABASE_URL is set, on PostgreSQL. Bounded: fixed
 * request counts; each request from its own client address, so per-IP limits do not interfere.
 *
 *   npx tsx bench/auth.ts
 */
import sharp from 'sharp';
import { call, createTestApp, type DbTarget, type TestApp } from '../apps/server/test/test-app.ts';
import { callFrom, randomIp } from '../apps/server/test/auth-helpers.ts';
import { hashPassword } from '../apps/server/src/modules/auth/password.ts';
import { insertUser } from '../apps/server/src/modules/auth/user-repository.ts';

const LOGINS = 120;
const CAPTCHAS = 300;
const UPLOADS = 40;
const INFO_CALLS = 3000;
const PASSWORD = 'Bench-Desk-Pass-1';

if (process.env.BENCH_DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
const targets: DbTarget[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function timed<T extends { code?: number }>(count: number, concurrency: number, job: (i: number) => Promise<T>) {
  const latencies: number[] = [];
  let next = 0;
  let failed = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const t0 = performance.now();
        const res = await job(i);
        if (res.code !== undefined && res.code !== 1) failed++;
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return `${(count / seconds).toFixed(1)}/s, p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms, failed ${failed}/${count}`;
}

async function upload(t: TestApp, token: string, image: Buffer) {
  const boundary = 'bench-boundary';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="b.jpg"\r\ncontent-type: image/jpeg\r\n\r\n`),
    image,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/common/image_upload',
    remoteAddress: randomIp(),
    headers: { authorization: token, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  return res.json() as { code: number };
}

async function run(target: DbTarget) {
  const t = await createTestApp(target);
  try {
    const passwordHash = await hashPassword(PASSWORD);
    const users = await Promise.all(
      Array.from({ length: 40 }, (_, i) => insertUser(t.ctx.db, { email: `bench${i}.${Date.now()}@bench.local`, passwordHash })),
    );
    const token = await t.ctx.services.sessions.create({ userId: users[0]!.id });
    const photo = await sharp({
      create: { width: 1600, height: 1200, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 120, sigma: 40 } },
    })
      .jpeg({ quality: 85 })
      .toBuffer();

    console.log(`\n${target}`);
    console.log(
      `  login (scrypt, concurrency 4):        ${await timed(LOGINS, 4, (i) => callFrom(t, randomIp(), 'POST', '/api/user/loginForU', { account: users[i % users.length]!.email, password: PASSWORD }))}`,
    );
    console.log(
      `  captcha image (concurrency 4):        ${await timed(CAPTCHAS, 4, () => callFrom(t, randomIp(), 'GET', '/api/user/captcha'))}`,
    );
    console.log(
      `  upload 1600x1200 JPEG ${(photo.length / 1024).toFixed(0)} KB (conc. 2): ${await timed(UPLOADS, 2, () => upload(t, token, photo))}`,
    );
    console.log(
      `  GET /api/user/info (concurrency 25):  ${await timed(INFO_CALLS, 25, () => call(t, 'GET', '/api/user/info', {}, { token }))}`,
    );
  } finally {
    await t.close();
  }
}

for (const target of targets) await run(target);
