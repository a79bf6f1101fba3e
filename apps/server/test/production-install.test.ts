/**
 * Build once, run the build: a clean copy of the repository's files with the built web app and
 * server, installed as production installs it (npm ci --omit=dev: no esbuild, no vite, no tsx),
 * starts with npm start's script on the embedded database and answers /health/ready, without
 * building anything or writing into its code tree.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { promisify } from 'node:util';
import { freePort } from './trading/server-process.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
// Child processes, not synchronous calls: the test worker keeps answering its runner meanwhile.
const run = (cmd: string, args: string[], cwd = ROOT) =>
  promisify(execFile)(cmd, args, { cwd, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' });

/** Every file of a directory tree with its size and modification time, to see that nothing wrote into it. */
function treeState(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((e) => e.isFile())
    .map((e) => {
      const file = path.join(e.parentPath, e.name);
      const st = fs.statSync(file);
      return `${path.relative(dir, file)} ${st.size} ${st.mtimeMs}`;
    })
    .sort();
}

describe('a production install of the built platform', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-prod-'));
  let child: ChildProcess | undefined;
  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child!.once('exit', r));
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('starts from npm ci --omit=dev and answers /health/ready', async () => {
    // Built once here (nothing to do when the build is fresh), as npm run build would.
    await run(process.execPath, ['scripts/web-build.mjs']);
    await run(process.execPath, ['scripts/server-build.mjs']);
    const files = (await run('git', ['ls-files', '-z'])).stdout.split('\0').filter(Boolean);
    const app = path.join(dir, 'app');
    for (const file of files) {
      if (!fs.existsSync(path.join(ROOT, file))) continue;
      fs.mkdirSync(path.dirname(path.join(app, file)), { recursive: true });
      fs.copyFileSync(path.join(ROOT, file), path.join(app, file));
    }
    for (const built of ['apps/server/dist', 'apps/web/dist'])
      fs.cpSync(path.join(ROOT, built), path.join(app, built), { recursive: true });

    await run('npm', ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund'], app);
    // What the start script would have needed to build with is not there.
    for (const tool of ['esbuild', 'vite', 'tsx']) expect(fs.existsSync(path.join(app, 'node_modules', tool)), tool).toBe(false);

    const codeBefore = treeState(path.join(app, 'apps'));
    const port = await freePort();
    const data = path.join(dir, 'data');
    let out = '';
    child = spawn(process.execPath, [path.join(app, 'scripts/start.mjs')], {
      cwd: app,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: data,
        HISTORY_BARS: '10',
        MARKET_ALWAYS_OPEN: '1',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    const deadline = Date.now() + 120_000;
    let status = 0;
    while (status !== 200) {
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${out}`);
      if (Date.now() > deadline) throw new Error(`/health/ready did not answer 200 in time (last ${status}):\n${out}`);
      status = await fetch(`http://127.0.0.1:${port}/health/ready`).then(
        (r) => r.status,
        () => 0,
      );
      if (status !== 200) await new Promise((r) => setTimeout(r, 250));
    }
    expect(out).not.toContain('Building');
    expect(treeState(path.join(app, 'apps'))).toEqual(codeBefore);
  }, 900_000);
});
