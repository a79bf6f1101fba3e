// Compiles the server ahead of time into apps/server/dist (one ESM bundle per entry, with the
// contract package inlined), so production runs plain `node` without a TypeScript loader.
// Dependencies stay in node_modules; migrations, locales and public/ are read from apps/server.
import fs from 'node:fs';
import path from 'node:path';
import { canBuild, fingerprint, isFresh, writeStamp } from './stamp.mjs';

const root = path.resolve(import.meta.dirname, '..');
const server = path.join(root, 'apps/server');
export const SERVER_DIST = path.join(server, 'dist');
const stamp = path.join(SERVER_DIST, '.build-stamp');
const ENTRIES = ['main', 'scripts/admin', 'scripts/migrate'];
const sources = () =>
  fingerprint([path.join(server, 'src'), path.join(server, 'package.json'), path.join(root, 'packages/contract'), import.meta.filename]);

export function serverBuildIsStale() {
  return !isFresh(stamp, sources());
}

export async function buildServer({ force = false, quiet = false } = {}) {
  if (!force && !serverBuildIsStale()) return false;
  // A production install (npm ci --omit=dev) has no esbuild: it runs the build it was given.
  if (!force && fs.existsSync(path.join(SERVER_DIST, 'main.js')) && !canBuild('esbuild')) return false;
  if (!canBuild('esbuild')) {
    console.error('The server is not built (apps/server/dist), and the build tools are not installed: run npm ci, then npm run build.');
    process.exit(1);
  }
  const { build, stop } = await import('esbuild');
  if (!quiet) console.log('Building the server (apps/server/src -> apps/server/dist)...');
  const pkg = JSON.parse(fs.readFileSync(path.join(server, 'package.json'), 'utf8'));
  const external = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).filter((name) => !name.startsWith('@tp/'));
  fs.rmSync(SERVER_DIST, { recursive: true, force: true });
  await build({
    entryPoints: Object.fromEntries(ENTRIES.map((e) => [e, path.join(server, 'src', `${e}.ts`)])),
    outdir: SERVER_DIST,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node24',
    external,
    sourcemap: 'linked',
    chunkNames: 'chunks/[name]-[hash]',
    logLevel: 'warning',
  });
  // esbuild's helper process would otherwise live on beside the server npm start runs in this process.
  await stop();
  writeStamp(stamp, sources());
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) await buildServer({ force: process.argv.includes('--force') });
