// `npm start`: builds the web app and the server when missing or stale, then runs the built server
// in this very process (plain node, NODE_ENV=production): a signal sent to the process npm starts
// reaches the server itself. `npm run dev`: the server from its sources with tsx, restarted on change.
import './node-version.mjs';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildServer, SERVER_DIST } from './server-build.mjs';
import { buildWeb } from './web-build.mjs';

const root = path.resolve(import.meta.dirname, '..');
buildWeb();

if (process.argv.includes('--dev')) {
  const tsxCli = createRequire(import.meta.url).resolve('tsx/cli');
  const child = spawn(process.execPath, [tsxCli, 'watch', path.join(root, 'apps/server/src/main.ts')], {
    cwd: root,
    stdio: 'inherit',
    env: { NODE_ENV: 'development', ...process.env },
  });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  await buildServer();
  process.env.NODE_ENV ??= 'production';
  // npm passes a SIGTERM only to its shell, which dies without passing it on: when npm goes, so does the server.
  if (process.env.npm_lifecycle_event) {
    const parent = process.ppid;
    setInterval(() => process.ppid !== parent && process.kill(process.pid, 'SIGTERM'), 500).unref();
  }
  await import(pathToFileURL(path.join(SERVER_DIST, 'main.js')).href);
}
