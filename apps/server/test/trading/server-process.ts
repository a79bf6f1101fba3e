/**
 * The real server as a child process, for the restart test and the order benchmark:
 * `node --import tsx apps/server/src/main.ts` on 127.0.0.1 and a free port.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import type { FixSessionConfig } from '../../src/fix-config.ts';

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const MAIN = path.join(ROOT, 'apps/server/src/main.ts');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process wrote, for failure messages. */
  output: () => string;
  exited: Promise<number | null>;
}

export async function startServer(env: Record<string, string>, timeoutMs = 120_000, nodeArgs: string[] = []): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', MAIN], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      ORDER_DEADLINE_MS: '60000',
      FOUR_EYES: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (chunk: Buffer) => {
    out = (out + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${out}`);
    try {
      const res = await fetch(`${url}/api/test/trading/idle`);
      if (res.ok && ((await res.json()) as { data?: { running?: boolean } }).data?.running) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start in time:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, child, output: () => out, exited };
}

/** The API as an existing client calls it: envelope answers, form posts, the token header. */
export async function request(
  base: string,
  method: 'GET' | 'POST',
  url: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  const body = new URLSearchParams(
    Object.entries(params)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]): [string, string] => [k, String(v)]),
  );
  const res =
    method === 'GET'
      ? await fetch(`${base}${url}?${body}`, { headers })
      : await fetch(`${base}${url}`, { method, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body });
  return (await res.json()) as { code: number; msg: string; data: any };
}

/**
 * A FIX session to a simulator on 127.0.0.1 at a free port, as the tests run them: quick heartbeats and
 * reconnects, sequence numbers reset at each logon, BTC/USDT only unless told.
 */
export async function localFixSession(overrides: Partial<FixSessionConfig> = {}): Promise<FixSessionConfig> {
  return {
    name: 'lp1',
    host: '127.0.0.1',
    port: await freePort(),
    senderCompId: 'TP',
    targetCompId: 'LP',
    heartbeatSeconds: 1,
    resetOnLogon: true,
    tls: false,
    reconnectSeconds: 0.2,
    maxReconnectSeconds: 1,
    symbols: { BTCUSDT: 'BTC/USDT' },
    ...overrides,
  };
}
