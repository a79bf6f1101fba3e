// A fingerprint of source trees (each file's path from the repository root and its contents), kept
// next to a build's output: a build is stale when the fingerprint differs, whether a file changed,
// was added or was removed. Contents, not times: a copy of the tree with its build (an image, a
// release archive, a fresh checkout) finds its build fresh.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const SKIP = new Set(['node_modules', 'dist', '.vite', 'coverage']);
const root = path.resolve(import.meta.dirname, '..');

function walk(dir, hash) {
  if (!fs.existsSync(dir)) return;
  const stat = fs.statSync(dir);
  if (stat.isFile())
    return void hash
      .update(`${path.relative(root, dir)}\0${stat.size}\0`)
      .update(fs.readFileSync(dir))
      .update('\n');
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (SKIP.has(entry.name)) continue;
    walk(path.join(dir, entry.name), hash);
  }
}

export function fingerprint(paths) {
  const hash = createHash('sha256');
  for (const p of paths) walk(p, hash);
  return hash.digest('hex');
}

export const isFresh = (stampFile, print) => fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === print;

export function writeStamp(stampFile, print) {
  fs.mkdirSync(path.dirname(stampFile), { recursive: true });
  fs.writeFileSync(stampFile, print);
}

/** Whether a build tool is installed (a production install, npm ci --omit=dev, has none). */
export function canBuild(tool) {
  try {
    createRequire(path.join(root, 'package.json')).resolve(`${tool}/package.json`);
    return true;
  } catch {
    return false;
  }
}
