import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * Where uploaded files live, by opaque key. The server serves them itself at `url(key)` after an
 * access check, so an object-store adapter (S3) only has to implement put/get/delete.
 */
export interface Storage {
  put(key: string, data: Buffer, mime: string): Promise<void>;
  /** The file's bytes, or null when there is no such key. */
  get(key: string): Promise<Buffer | null>;
  delete(key: string): Promise<void>;
  /** The path under which the server serves the key (access-checked, never a public web root). */
  url(key: string): string;
}

export const UPLOADS_PATH = '/uploads/';
const KEY = /^[A-Za-z0-9][A-Za-z0-9_-]*(\.[a-z0-9]{1,5})?$/;

export function assertStorageKey(key: string): void {
  if (!KEY.test(key)) throw new Error(`storage: invalid key ${JSON.stringify(key)}`);
}

/** Files in one local directory (config.storageDir), outside any static root. */
export class LocalStorage implements Storage {
  constructor(private readonly dir: string) {}

  async put(key: string, data: Buffer, _mime: string): Promise<void> {
    assertStorageKey(key);
    await fs.mkdir(this.dir, { recursive: true });
    // Write then rename: a reader never sees half a file.
    const tmp = path.join(this.dir, `.${key}.${randomBytes(4).toString('hex')}.tmp`);
    await fs.writeFile(tmp, data, { flag: 'wx' });
    await fs.rename(tmp, path.join(this.dir, key));
  }

  async get(key: string): Promise<Buffer | null> {
    if (!KEY.test(key)) return null;
    try {
      return await fs.readFile(path.join(this.dir, key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    if (!KEY.test(key)) return;
    await fs.rm(path.join(this.dir, key), { force: true });
  }

  url(key: string): string {
    return `${UPLOADS_PATH}${key}`;
  }
}
