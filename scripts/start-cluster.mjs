// `npm run start:cluster [-- --servers N]`: N servers (default 3) on ports 8080, 8081, ... sharing one
// PostgreSQL (DATABASE_URL) and one Redis (REDIS_URL), as behind a load balancer. One of them is
// elected to run the price feed and the engine; stop it (Ctrl+C here, or kill its pid) to see another take over.
import './node-version.mjs';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { buildServer, SERVER_DIST } from './server-build.mjs';
import { buildWeb } from './web-build.mjs';

const root = path.resolve(import.meta.dirname, '..');
const argIndex = process.argv.indexOf('--servers');
const count = Number(argIndex > 0 ? process.argv[argIndex + 1] : (process.env.CLUSTER_SERVERS ?? 3));
const basePort = Number(process.env.PORT ?? 8080);

const missing = ['DATABASE_URL', 'REDIS_URL'].filter((k) => !process.env[k]);
if (missing.length || !Number.isInteger(count) || count < 1) {
  console.error(
    `\nstart:cluster needs ${missing.length ? missing.join(' and ') : 'a whole number of servers'}.\n` +
      `  DATABASE_URL=postgres://user:pass@127.0.0.1:5432/trading REDIS_URL=redis://127.0.0.1:6379 npm run start:cluster -- --servers 3\n` +
      `Uploads go to STORAGE_DIR (default $DATA_DIR/uploads): a directory every server mounts, or set STORAGE_DRIVER=s3.\n`,
  );
  process.exit(2);
}

async function answers(port) {
  try {
    return (await fetch(`http://127.0.0.1:${port}/v1/api/forex/trade_list`)).ok;
  } catch {
    return false;
  }
}

function startServer(i) {
  const port = basePort + i;
  const child = spawn(process.execPath, [path.join(SERVER_DIST, 'main.js')], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { NODE_ENV: 'production', ...process.env, PORT: String(port) },
  });
  children.push(child);
  console.log(`  server ${i + 1}: http://localhost:${port}  (pid ${child.pid})`);
  child.on('exit', (code, signal) => {
    console.log(`  server on port ${port} exited (${signal ?? code})`);
    if (children.every((c) => c.exitCode !== null || c.signalCode !== null)) process.exit(0);
  });
  return port;
}

buildWeb();
await buildServer();
const children = [];
// The first server applies the migrations and the seed alone; the others start once it answers.
const firstPort = startServer(0);
const deadline = Date.now() + 120_000;
while (!(await answers(firstPort))) {
  if (children[0].exitCode !== null || Date.now() > deadline) {
    console.error('  the first server did not start; see its output above');
    process.exit(1);
  }
  await new Promise((r) => setTimeout(r, 300));
}
for (let i = 1; i < count; i++) startServer(i);
console.log(`\n  ${count} servers share PostgreSQL and Redis; put a load balancer in front of them (sticky sessions not needed).\n`);
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => children.forEach((c) => c.exitCode === null && c.kill(sig)));
