// Builds apps/web into apps/web/dist when the sources are newer than the last build.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'apps/web/dist/index.html');

function newestMtime(dir) {
  let newest = 0;
  if (!fs.existsSync(dir)) return newest;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

export function webBuildIsStale() {
  if (!fs.existsSync(dist)) return true;
  const built = fs.statSync(dist).mtimeMs;
  const sources = Math.max(newestMtime(path.join(root, 'apps/web')), newestMtime(path.join(root, 'packages/contract/src')));
  return sources > built;
}

export function buildWeb({ force = false } = {}) {
  if (!force && !webBuildIsStale()) return;
  console.log('Building the web app (apps/web -> apps/web/dist)...');
  const res = spawnSync('npm', ['run', 'build', '-w', 'apps/web', '--silent'], { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) {
    console.error('The web app build failed.');
    process.exit(res.status ?? 1);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) buildWeb({ force: process.argv.includes('--force') });
