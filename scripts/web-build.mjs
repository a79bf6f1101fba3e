// Builds apps/web into apps/web/dist when its sources (or the contract's) changed since the last build.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fingerprint, isFresh, writeStamp } from './stamp.mjs';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'apps/web/dist');
const stamp = path.join(dist, '.build-stamp');
const sources = () => fingerprint([path.join(root, 'apps/web'), path.join(root, 'packages/contract/src')]);

export function webBuildIsStale() {
  return !fs.existsSync(path.join(dist, 'index.html')) || !isFresh(stamp, sources());
}

export function buildWeb({ force = false } = {}) {
  if (!force && !webBuildIsStale()) return;
  console.log('Building the web app (apps/web -> apps/web/dist)...');
  const res = spawnSync('npm', ['run', 'build', '-w', 'apps/web', '--silent'], { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) {
    console.error('The web app build failed.');
    process.exit(res.status ?? 1);
  }
  writeStamp(stamp, sources());
}

if (import.meta.url === `file://${process.argv[1]}`) buildWeb({ force: process.argv.includes('--force') });
