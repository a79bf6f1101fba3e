import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import { UPLOADS_PATH } from '../../platform/storage.ts';
import { IMAGE_EXT, IMAGE_MIME, reencodeImage } from './image.ts';
import { ensureSecret, findUpload, insertUpload, keysWithSameContent } from './upload-repository.ts';

/** How long a signed image URL works in an <img> tag without the authorization header. */
export const SIGNED_URL_TTL_S = 60 * 60;
const SECRET_SETTING = 'upload_url_secret';
const KEY_IN_PATH = /^\/uploads\/([A-Za-z0-9_-]{16,64}\.(?:jpg|png|webp))$/;

export type UploadOutcome = { ok: true; url: string } | { ok: false; reason: 'upload_bad_type' };

/**
 * Images users upload (identity documents, deposit proofs, chat pictures). Stored re-encoded under
 * a random key outside the web root, served only to their owner and staff, or to anyone holding
 * a signed URL for a short while: `/uploads/<key>?exp=<unix s>&sig=<hmac>`.
 */
export class UploadService {
  private secret: Promise<Buffer> | null = null;

  constructor(private readonly ctx: AppContext) {}

  async storeImage(userId: number, raw: Buffer): Promise<UploadOutcome> {
    const image = await reencodeImage(raw);
    if (!image) return { ok: false, reason: 'upload_bad_type' };
    const key = `${randomBytes(16).toString('hex')}.${IMAGE_EXT[image.format]}`;
    const mime = IMAGE_MIME[image.format];
    await this.ctx.storage.put(key, image.data, mime);
    try {
      const sha256 = createHash('sha256').update(image.data).digest('hex');
      await insertUpload(this.ctx.db, { userId, key, mime, size: image.data.length, sha256 });
    } catch (err) {
      await this.ctx.storage.delete(key);
      throw err;
    }
    return { ok: true, url: await this.signedUrl(key) };
  }

  /** The storage key named by an upload URL (relative or absolute, signed or not); null if it is not one. */
  keyOf(url: string): string | null {
    let pathname: string;
    try {
      pathname = new URL(url, 'http://local').pathname;
    } catch {
      return null;
    }
    return KEY_IN_PATH.exec(pathname)?.[1] ?? null;
  }

  /** The key of an upload URL if that upload belongs to the user; null otherwise. */
  async ownedKey(userId: number, url: string): Promise<string | null> {
    const key = this.keyOf(url);
    if (!key) return null;
    const row = await findUpload(this.ctx.db, key);
    return row?.userId === userId ? key : null;
  }

  /**
   * For stored upload paths or URLs: the stored paths of every upload with the same picture (the
   * same upload, or another upload of the same bytes after re-encoding), itself included.
   */
  async sameContent(paths: string[]): Promise<Map<string, string[]>> {
    const keyOfPath = new Map<string, string>();
    for (const p of paths) {
      const key = this.keyOf(p);
      if (key) keyOfPath.set(p, key);
    }
    const same = await keysWithSameContent(this.ctx.db, [...new Set(keyOfPath.values())]);
    const out = new Map<string, string[]>();
    for (const [p, key] of keyOfPath) out.set(p, [...new Set([p, ...(same.get(key) ?? [key]).map((k) => this.pathOf(k))])]);
    return out;
  }

  /** The stable path stored in records: `/uploads/<key>`. */
  pathOf(key: string): string {
    return this.ctx.storage.url(key);
  }

  async signedUrl(keyOrPath: string, ttlS = SIGNED_URL_TTL_S): Promise<string> {
    const key = keyOrPath.startsWith(UPLOADS_PATH) ? keyOrPath.slice(UPLOADS_PATH.length) : keyOrPath;
    const exp = Math.floor(Date.now() / 1000) + ttlS;
    return `${this.ctx.storage.url(key)}?exp=${exp}&sig=${await this.signature(key, exp)}`;
  }

  async signatureValid(key: string, exp: string | undefined, sig: string | undefined): Promise<boolean> {
    if (!exp || !sig || !/^\d{1,12}$/.test(exp) || Number(exp) < Date.now() / 1000) return false;
    const expected = Buffer.from(await this.signature(key, Number(exp)));
    const given = Buffer.from(sig);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** The file if `viewer` may see it: its owner, any staff member, or a valid signature. */
  async read(key: string, viewer: { userId?: number; staff?: boolean; exp?: string; sig?: string }) {
    const row = await findUpload(this.ctx.db, key);
    if (!row) return null;
    const allowed =
      viewer.staff ||
      (viewer.userId !== undefined && viewer.userId === row.userId) ||
      (await this.signatureValid(key, viewer.exp, viewer.sig));
    if (!allowed) return null;
    const data = await this.ctx.storage.get(key);
    return data ? { data, mime: row.mime } : null;
  }

  private async signature(key: string, exp: number): Promise<string> {
    this.secret ??= ensureSecret(this.ctx.db, SECRET_SETTING, randomBytes(32).toString('base64url')).then(
      (s) => Buffer.from(s),
      (err: unknown) => {
        this.secret = null;
        throw err;
      },
    );
    return createHmac('sha256', await this.secret)
      .update(`${key}|${exp}`)
      .digest()
      .subarray(0, 18)
      .toString('base64url');
  }
}
