// A fingerprint of source trees (each file's path, size and mtime), kept next to a build's output:
// a build is stale when the fingerprint differs, whether a file changed, was added or was removed.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const SKIP = new Set(['node_modules', 'dist', '.vite', 'coverage']);

function walk(dir, hash) {
  if (!fs.existsSync(dir)) return;
  const stat = fs.statSync(dir);
  if (stat.isFile()) return void hash.update(`${dir}\0${stat.size}\0${stat.mtimeMs}\n`);
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
