// Builds apps/web into apps/web/dist when its sources (or the contract's) changed since the last build.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { canBuild, fingerprint, isFresh, writeStamp } from './stamp.mjs';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'apps/web/dist');
const stamp = path.join(dist, '.build-stamp');
const sources = () => fingerprint([path.join(root, 'apps/web'), path.join(root, 'packages/contract/src')]);

export function webBuildIsStale() {
  return !fs.existsSync(path.join(dist, 'index.html')) || !isFresh(stamp, sources());
}

export function buildWeb({ force = false } = {}) {
  if (!force && !webBuildIsStale()) return;
  // A production install (npm ci --omit=dev) has no vite: it serves the build it was given.
  if (!force && fs.existsSync(path.join(dist, 'index.html')) && !canBuild('vite')) return;
  if (!canBuild('vite')) {
    console.error('The web app is not built (apps/web/dist), and the build tools are not installed: run npm ci, then npm run build.');
    process.exit(1);
  }
  console.log('Building the web app (apps/web -> apps/web/dist)...');
  const res = spawnSync('npm', ['run', 'build', '-w', 'apps/web', '--silent'], { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) {
    console.error('The web app build failed.');
    process.exit(res.status ?? 1);
  }
  writeStamp(stamp, sources());
}

if (import.meta.url === `file://${process.argv[1]}`) buildWeb({ force: process.argv.includes('--force') });
