/**
 * `npm start` as an operator runs it: the built server in the very process npm starts (plain
 * node), the closing block with the staff sign-in, operator commands through the running server,
 * quiet request logs, and a graceful stop on SIGTERM or SIGINT within the bound, the port freed.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../test/trading/server-process.ts';
import { REPO_ROOT } from '../paths.ts';
import { STAFF_TOTP_SETUP } from '@tp/contract/schemas/admin';
import { totpCode } from '../platform/totp.ts';

const STOP_BOUND_MS = 12_000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-start-'));
const env = (port: number) => ({
  ...process.env,
  NODE_ENV: 'production',
  HOST: '127.0.0.1',
  PORT: String(port),
  DATA_DIR: dir,
  LOG_LEVEL: 'info',
  HISTORY_BARS: '0',
  ADMIN_PASSWORD: '',
  DATABASE_URL: '',
  REDIS_URL: '',
});

interface Started {
  child: ChildProcess;
  url: string;
  out: () => string;
  exited: Promise<number | null>;
}

const spawned: ChildProcess[] = [];

/** `node scripts/start.mjs` (what `npm start` runs), or `npm start` itself. */
async function npmStart(viaNpm = false): Promise<Started> {
  const port = await freePort();
  const [command, args] = viaNpm ? ['npm', ['start', '--silent']] : [process.execPath, ['scripts/start.mjs']];
  const child = spawn(command, args, { cwd: REPO_ROOT, env: env(port), stdio: ['ignore', 'pipe', 'pipe'] });
  spawned.push(child);
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 240_000;
  while (!out.includes('Trading platform running at')) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`npm start did not come up:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { child, url: `http://127.0.0.1:${port}`, out: () => out, exited };
}

/** Child processes of pid (none: the server runs in the process npm starts). */
const childrenOf = (pid: number) =>
  fs
    .readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return fs.readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ')[1] === String(pid);
      } catch {
        return false;
      }
    });

const portRefused = (url: string) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(Number(new URL(url).port), '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(true));
  });

async function stopWith(s: Started, signal: NodeJS.Signals) {
  const started = Date.now();
  s.child.kill(signal);
  const code = await s.exited;
  return { code, ms: Date.now() - started };
}

/** Milliseconds until the server let its port go and removed its socket, polled up to the bound. */
async function gone(url: string, from: number): Promise<number> {
  while (Date.now() - from < STOP_BOUND_MS) {
    if ((await portRefused(url)) && !fs.existsSync(path.join(dir, 'control.sock'))) return Date.now() - from;
    await new Promise((r) => setTimeout(r, 100));
  }
  return Infinity;
}

const ops = (port: number, ...args: string[]) =>
  spawnSync(process.execPath, ['scripts/ops.mjs', ...args], { cwd: REPO_ROOT, env: env(port), encoding: 'utf8', timeout: 60_000 });

const staffLogin = async (url: string, password: string, totp?: string) =>
  (await (
    await fetch(`${url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@localhost.localdomain', password, ...(totp ? { totp } : {}) }),
    })
  ).json()) as { code: number; data: { secret?: string } | null };

describe('npm start and stop', () => {
  afterAll(() => {
    for (const child of spawned) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('runs the built server, prints the staff sign-in once, takes operator commands, and stops on SIGTERM', async () => {
    const s = await npmStart();
    const port = Number(new URL(s.url).port);
    expect(s.out()).toMatch(/Password \(generated, shown only this once, keep it\): \S{16}/);
    expect(s.out()).toContain('staff email: admin@localhost.localdomain');
    expect(fs.readFileSync(`/proc/${s.child.pid}/cmdline`, 'utf8')).not.toContain('tsx');
    expect(childrenOf(s.child.pid!)).toEqual([]);

    // A locked-out operator resets the password while the server runs, and signs in with it.
    const reset = ops(port, 'reset-password', 'admin@localhost.localdomain', '--password', 'back-in-again-7');
    expect(reset.status, reset.stderr).toBe(0);
    // The admin role must use TOTP: the new password opens the first-sign-in enrolment, then a code signs in.
    const enrol = await staffLogin(s.url, 'back-in-again-7');
    expect(enrol.code).toBe(STAFF_TOTP_SETUP);
    expect((await staffLogin(s.url, 'back-in-again-7', totpCode(enrol.data!.secret!))).code).toBe(1);
    const file = path.join(dir, 'running.tar.gz');
    expect(ops(port, 'backup', file).stdout).toContain(`Backup written: ${file}`);
    expect(fs.statSync(file).size).toBeGreaterThan(1000);

    const ws = new WebSocket(`${s.url.replace('http', 'ws')}/v1/ws`);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const closeFrame = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));

    const { code, ms } = await stopWith(s, 'SIGTERM');
    expect(code).toBe(0);
    expect(ms).toBeLessThan(STOP_BOUND_MS);
    expect(await closeFrame).not.toBe(1006);
    expect(await portRefused(s.url)).toBe(true);
    expect(fs.existsSync(path.join(dir, 'control.sock'))).toBe(false);

    // Production logs: JSON lines, no line per request at info, business events with the request id.
    const lines = s
      .out()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg: string; reqId?: string; level: number });
    expect(lines.filter((l) => /request/.test(l.msg) && l.level <= 30)).toEqual([]);
    expect(lines.find((l) => l.msg === 'staff signed in')?.reqId).toMatch(/^[0-9a-f-]{36}$/);
  }, 400_000);

  it('on a later start says where the password is and how to reset it; SIGTERM to npm itself stops the server', async () => {
    const s = await npmStart(true);
    expect(s.out()).not.toContain('Password (generated');
    expect(s.out()).toContain('npm run admin -- reset-password admin@localhost.localdomain');
    const from = Date.now();
    s.child.kill('SIGTERM');
    expect(await gone(s.url, from)).toBeLessThan(STOP_BOUND_MS);
  }, 400_000);

  it('stops on SIGINT (Ctrl+C) within the bound', async () => {
    const s = await npmStart();
    const { code, ms } = await stopWith(s, 'SIGINT');
    expect(code).toBe(0);
    expect(ms).toBeLessThan(STOP_BOUND_MS);
    expect(await gone(s.url, Date.now())).toBeLessThan(STOP_BOUND_MS);
  }, 400_000);
});
