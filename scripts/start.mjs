// `npm start`: builds the web app if needed, then serves it and the API on one port (default 8080).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { buildWeb } from './web-build.mjs';

const root = path.resolve(import.meta.dirname, '..');
buildWeb();
const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: { NODE_ENV: 'production', ...process.env },
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
