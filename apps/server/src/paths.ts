import fs from 'node:fs';
import path from 'node:path';

/**
 * apps/server, found from this file's directory: src/ when run from sources, dist/ when built
 * (the bundle flattens every module into one file, so fixed '../..' paths would differ).
 */
function findServerRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'drizzle')) && fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`apps/server not found above ${from}`);
  }
}

export const SERVER_ROOT = findServerRoot(import.meta.dirname);
export const REPO_ROOT = path.resolve(SERVER_ROOT, '../..');
export const SERVER_SRC = path.join(SERVER_ROOT, 'src');
export const MIGRATIONS_DIR = path.join(SERVER_ROOT, 'drizzle');
export const PUBLIC_DIR = path.join(SERVER_ROOT, 'public');
export const LOCALES_DIR = path.join(SERVER_SRC, 'locales');
