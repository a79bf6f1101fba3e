import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Logger } from 'pino';
import type { CommandResult } from './commands.ts';

/**
 * The embedded database belongs to the one server process that opened it: while it runs, operator
 * commands (backup, password reset) reach it through a socket in DATA_DIR that only the
 * data directory's owner can open, and run on the server's own connection.
 */
export const controlSocket = (dataDir: string) => path.resolve(dataDir, 'control.sock');

export async function startControl(
  dataDir: string,
  run: (argv: string[]) => Promise<CommandResult>,
  log: Logger,
): Promise<() => Promise<void>> {
  const socket = controlSocket(dataDir);
  // A socket file left by a server that was killed: nothing answers on it any more.
  if (fs.existsSync(socket) && !(await sendControl(dataDir, ['ping']))) fs.rmSync(socket, { force: true });
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const argv = (JSON.parse(body || '{}') as { argv?: string[] }).argv ?? [];
      const answer = argv[0] === 'ping' ? Promise.resolve({ code: 0, out: 'pong' }) : run(argv);
      answer
        .catch((err: Error) => ({ code: 1, out: err.message }))
        .then((result) => {
          if (argv[0] !== 'ping') log.info({ command: argv[0], exitCode: result.code }, 'operator command');
          res.setHeader('content-type', 'application/json').end(JSON.stringify(result));
        });
    });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(socket, resolve));
  fs.chmodSync(socket, 0o600);
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Sends a command to the running server; null when no server runs on this data directory. */
export function sendControl(dataDir: string, argv: string[]): Promise<CommandResult | null> {
  const socketPath = controlSocket(dataDir);
  if (!fs.existsSync(socketPath)) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath, path: '/', method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve(JSON.parse(body) as CommandResult));
    });
    req.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNREFUSED' || err.code === 'ENOENT' ? resolve(null) : reject(err)));
    req.end(JSON.stringify({ argv }));
  });
}
