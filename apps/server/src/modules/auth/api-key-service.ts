import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { BlockList, isIPv4, isIPv6 } from 'node:net';
import { and, desc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { Code } from '@tp/contract/codes';
import type { SessionEndReason } from '@tp/contract/constants';
import { MAX_API_KEYS, type ApiKeyScope } from '@tp/contract/schemas/auth';
import type { AppContext, AuthStaff, AuthUser } from '../../context.ts';
import { clientKey } from '../../http/client-key.ts';
import { AppError, fail, forbidden, invalid, notFound } from '../../http/errors.ts';
import { BusChannels, type SessionEnded } from '../../platform/bus-channels.ts';
import { lockError, SECRET_LOCK_MS, SecretGuard, type SecretTexts } from './secret-guard.ts';
import { apiKeys, users } from './schema.ts';
import { ensureSetting } from './settings-repository.ts';
import { userOwner } from './two-factor-service.ts';
import { findUserById } from './user-repository.ts';

/** How far a signed request's timestamp may be from the server's clock, either way. */
export const SIGNATURE_WINDOW_MS = 60_000;
/** last_used_at is written at most this often per key (per server). */
const LAST_USED_EVERY_MS = 60_000;
const CACHE_MS = 3_000;
const KEY_PATTERN = /^tpk_([1-9]\d{0,9})_([A-Za-z0-9_-]{43})$/;
const MASTER_SETTING = 'api_key_master_secret';
/** Wrong keys one address may send in the lock window (any keys), before every key is refused from it. */
const FAILURES_PER_ADDRESS = 20;

const LOCK_TEXTS: SecretTexts = { locked: 'api_key_locked', subject: 'api_key_locked_subject', body: 'api_key_locked_body' };

/** The credentials a request carries: the bearer key, or the three headers of a signed request. */
export type ApiKeyCredentials =
  | { kind: 'bearer'; key: string }
  | { kind: 'signed'; id: string; timestamp: string; signature: string; method: string; url: string; body: Buffer };

type KeyRow = typeof apiKeys.$inferSelect;

/** What the auth of a request resolves to: its user, with the key it came with. */
export type ApiKeyUser = AuthUser & { apiKey: { id: number; scopes: ApiKeyScope[] } };

const invalidKey = () => new AppError(Code.SESSION_EXPIRED, 'api_key_invalid');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * API keys for bots: created from the user centre (shown once), listed, revoked by the user or staff, and
 * resolved for HTTP calls and the socket login. A key acts as its user within its scopes; which calls a
 * scope reaches is decided on the matched route (API_KEY_ENDPOINTS in the contract's endpoint table).
 *
 * Secrets: a key is `tpk_<id>_<secret>`, the secret 256 random-looking bits. Only its SHA-256 is stored,
 * enough for the bearer form (a fast hash suits a high-entropy secret: nothing to guess from it). The
 * signed form needs the secret itself server-side, so it is DERIVED rather than stored: secret =
 * HMAC-SHA256(master, salt) with a random per-key salt in the row and the master from API_KEY_SECRET.
 * Derivation (not encryption) leaves no ciphertext, IV or key version to manage, the database holds
 * nothing a thief can sign with unless they also hold the master, and a new master ends every key's
 * signed use at once. Without API_KEY_SECRET the master is made once at random and kept in the
 * settings table (so every server of a cluster derives the same secrets); operators who want the
 * separation set API_KEY_SECRET (changing it later invalidates the keys' signatures, not their bearer use).
 */
export class ApiKeyService {
  private readonly guard: SecretGuard;
  private master: Promise<Buffer> | null = null;
  /** Rows by id for a few seconds (revocations on any server clear it through the bus). */
  private readonly rows = new Map<
    number,
    { row: KeyRow & { userActive: boolean; uid: string; email: string | null; isDemo: boolean }; until: number }
  >();
  private readonly lastUsedWrites = new Map<number, number>();

  constructor(private readonly ctx: AppContext) {
    this.guard = new SecretGuard(ctx);
    ctx.bus.subscribe(BusChannels.sessionEnded, () => this.rows.clear());
  }

  // ---------------------------------------------------------------- management
  async create(
    user: AuthUser,
    input: { name: string; scopes: ApiKeyScope[]; ip_allow: string[]; expires_at?: Date; totp?: string },
    lang?: string,
  ): Promise<{ id: number; key: string }> {
    if (input.expires_at && input.expires_at.getTime() <= Date.now()) throw invalid('api_key_expiry_invalid');
    // The second factor, when on, guards key creation as it guards withdrawals (same `totp` parameter).
    const row = await findUserById(this.ctx.db, user.id);
    if (row?.totpEnabled) {
      if (!input.totp) throw fail('totp_required_api_key');
      if (!(await this.ctx.services.twoFactor.accept(user.id, input.totp, lang))) throw fail('totp_code_wrong');
    }
    const salt = randomBytes(32).toString('base64url');
    const secret = await this.secretOf(salt);
    const scopes = [...new Set(input.scopes)];
    const ipAllow = [...new Set(input.ip_allow)];
    const id = await this.ctx.db.transaction(async (tx) => {
      // The user's row is the lock: two creates at once cannot both pass the cap.
      await tx.execute(sql`select id from ${users} where id = ${user.id} for update`);
      const [{ n } = { n: 0 }] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(apiKeys)
        .where(
          and(eq(apiKeys.userId, user.id), isNull(apiKeys.revokedAt), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, sql`now()`))),
        );
      if (n >= MAX_API_KEYS) throw fail('api_key_limit', { max: MAX_API_KEYS });
      const [created] = await tx
        .insert(apiKeys)
        .values({
          userId: user.id,
          name: input.name,
          scopes,
          ipAllow,
          expiresAt: input.expires_at ?? null,
          secretHash: sha256(secret),
          secretSalt: salt,
        })
        .returning({ id: apiKeys.id });
      return created!.id;
    });
    return { id, key: `tpk_${id}_${secret}` };
  }

  async list(userId: number) {
    const rows = await this.ctx.db.select().from(apiKeys).where(eq(apiKeys.userId, userId)).orderBy(desc(apiKeys.id));
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      scopes: r.scopes,
      ip_allow: r.ipAllow,
      expires_at: iso(r.expiresAt),
      created_at: r.createdAt.toISOString(),
      last_used_at: iso(r.lastUsedAt),
      revoked_at: iso(r.revokedAt),
    }));
  }

  /** Revokes a key of the user; its calls and its sockets stop at once, on every server. */
  async revoke(userId: number, id: number, reason: SessionEndReason = 'logout'): Promise<void> {
    const [row] = await this.ctx.db
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId)));
    if (!row) throw notFound();
    const ended = await this.ctx.db
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id });
    this.rows.clear();
    // A key's socket logins are tracked under the negative key id (sessions have positive ids).
    if (ended.length) this.ctx.bus.publish(BusChannels.sessionEnded, { sessionIds: [-id], reason } satisfies SessionEnded);
  }

  /** Revokes every live key of a user (a changed or reset password ends them, as it ends sessions). */
  async revokeAllForUser(userId: number, reason: SessionEndReason): Promise<void> {
    const ended = await this.ctx.db
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id });
    this.rows.clear();
    if (ended.length)
      this.ctx.bus.publish(BusChannels.sessionEnded, { sessionIds: ended.map((r) => -r.id), reason } satisfies SessionEnded);
  }

  /** Ends the socket logins of every key of a user (a disabled account); the keys are refused while it stays disabled. */
  async endSockets(userId: number, reason: SessionEndReason): Promise<void> {
    const ids = await this.ctx.db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.userId, userId));
    this.rows.clear();
    if (ids.length) this.ctx.bus.publish(BusChannels.sessionEnded, { sessionIds: ids.map((r) => -r.id), reason } satisfies SessionEnded);
  }

  /** Staff: revokes a user's key, on the audit record. */
  async revokeByStaff(who: AuthStaff, userId: number, id: number): Promise<void> {
    await this.revoke(userId, id, 'ended_by_staff');
    await this.ctx.services.staff.audit(this.ctx.db, who, 'user.api_key_revoke', { type: 'user', id: userId }, null, { api_key_id: id });
  }

  // ---------------------------------------------------------------- authentication
  /**
   * The user a request's key acts as, or a refusal: unknown, wrong, revoked or expired keys, a wrong,
   * stale or replayed signature, an address off the key's allow-list. Wrong keys and signatures count
   * like other secrets: per key and address (SecretGuard, 5, the owner hears of a lock) and per address
   * for any key (20), so a key cannot be guessed, and a stranger who learns a key id cannot lock its
   * bot out from another address.
   */
  async authenticate(creds: ApiKeyCredentials, ip: string | undefined): Promise<ApiKeyUser> {
    const from = clientKey(ip);
    let idText: string;
    let presented: string | null = null;
    if (creds.kind === 'bearer') {
      const m = KEY_PATTERN.exec(creds.key.trim());
      if (!m) return this.refuse(null, from);
      idText = m[1]!;
      presented = m[2]!;
    } else {
      idText = creds.id.trim();
      if (!/^[1-9]\d{0,9}$/.test(idText)) return this.refuse(null, from);
    }
    const id = Number(idText);
    await this.mustNotBeLocked(id, from);
    const row = await this.row(id);
    if (!row) return this.refuse(null, from);

    if (creds.kind === 'bearer') {
      const right = timingSafeEqual(Buffer.from(sha256(presented!), 'hex'), Buffer.from(row.secretHash, 'hex'));
      if (!right) return this.refuse(row, from);
    } else {
      const ts = creds.timestamp.trim();
      if (!/^\d{10,15}$/.test(ts) || Math.abs(Date.now() - Number(ts)) > SIGNATURE_WINDOW_MS) throw invalid('api_key_timestamp_invalid');
      const signature = creds.signature.trim().toLowerCase();
      const secret = await this.secretOf(row.secretSalt);
      const expected = apiKeySignature(secret, ts, creds.method, creds.url, creds.body);
      const given = /^[0-9a-f]{64}$/.test(signature) ? Buffer.from(signature, 'hex') : null;
      if (!given || !timingSafeEqual(given, expected)) return this.refuse(row, from);
      // Each signature is accepted once. It stays usable while its timestamp is within the window either
      // side of now, so it is remembered for twice the window, in the shared throttle (Redis when
      // configured, so a replay to another server is caught too; memory otherwise).
      const seen = await this.ctx.services.throttle.hit(`api_key_sig:${row.id}:${signature}`, 1, 2 * SIGNATURE_WINDOW_MS);
      if (!seen.allowed) throw new AppError(Code.SESSION_EXPIRED, 'api_key_signature_replayed');
    }
    // The key is right: its state decides now (telling a right key's owner why it stopped working).
    if (row.revokedAt || !row.userActive) throw invalidKey();
    if (row.expiresAt && row.expiresAt.getTime() <= Date.now()) throw new AppError(Code.SESSION_EXPIRED, 'api_key_expired');
    if (row.ipAllow.length && !allowed(row.ipAllow, ip)) throw forbidden('api_key_ip_refused');
    await this.touch(row.id);
    return {
      id: row.userId,
      uid: row.uid,
      email: row.email,
      isDemo: row.isDemo,
      sessionId: -row.id,
      expiresAt: row.expiresAt ?? new Date(Date.now() + 365 * 86_400_000),
      apiKey: { id: row.id, scopes: row.scopes as ApiKeyScope[] },
    };
  }

  private async mustNotBeLocked(id: number, from: string) {
    const perAddress = await this.ctx.services.throttle.check(`api_key_ip:${from}`, FAILURES_PER_ADDRESS, SECRET_LOCK_MS);
    const wait = Math.max(perAddress.retryAfterMs, await this.guard.lockedFor('api_key', `${id}@${from}`));
    if (wait > 0) throw lockError(LOCK_TEXTS, wait);
  }

  /** Counts a wrong key (per address; and per key and address when the key exists), then refuses. */
  private async refuse(row: { id: number; userId: number } | null, from: string): Promise<never> {
    const wrong = async () => false;
    // Any wrong key from one address, whichever key it names (as STAFF_LOGIN_FAILURES_PER_IP does for
    // staff e-mails): more than the per-key count, as one address may be a whole office's bots.
    const perAddress = await this.ctx.services.throttle.hit(`api_key_ip:${from}`, FAILURES_PER_ADDRESS, SECRET_LOCK_MS);
    if (!perAddress.allowed) throw lockError(LOCK_TEXTS, perAddress.retryAfterMs);
    if (row) {
      const owner = async () => {
        const user = await findUserById(this.ctx.db, row.userId);
        return user ? userOwner(this.ctx, user) : null;
      };
      await this.guard.attempt('api_key', `${row.id}@${from}`, owner, wrong, { ...LOCK_TEXTS, vars: { id: row.id } });
    }
    throw invalidKey();
  }

  private async row(id: number) {
    const hit = this.rows.get(id);
    if (hit && hit.until > Date.now()) return hit.row;
    const [row] = await this.ctx.db
      .select({
        key: apiKeys,
        userActive: sql<boolean>`${users.status} = 1`,
        uid: users.uid,
        email: users.email,
        isDemo: users.isDemo,
      })
      .from(apiKeys)
      .innerJoin(users, eq(users.id, apiKeys.userId))
      .where(eq(apiKeys.id, id))
      .limit(1);
    if (!row) return null;
    const value = { ...row.key, userActive: row.userActive, uid: row.uid, email: row.email, isDemo: row.isDemo };
    if (this.rows.size > 10_000) this.rows.clear();
    this.rows.set(id, { row: value, until: Date.now() + CACHE_MS });
    return value;
  }

  /**
   * Records the key's last use, at most once a minute per key (not on every call). The call that writes
   * it waits for the write, so the key's owner sees the use as soon as the call has answered; a failed
   * write is logged, not turned into a refusal.
   */
  private async touch(id: number) {
    const now = Date.now();
    if ((this.lastUsedWrites.get(id) ?? 0) > now - LAST_USED_EVERY_MS) return;
    if (this.lastUsedWrites.size > 10_000) this.lastUsedWrites.clear();
    this.lastUsedWrites.set(id, now);
    await this.ctx.db
      .update(apiKeys)
      .set({ lastUsedAt: new Date(now) })
      .where(eq(apiKeys.id, id))
      .catch((err: unknown) => this.ctx.log.warn({ err, apiKeyId: id }, 'api key last use not recorded'));
  }

  private async secretOf(salt: string): Promise<string> {
    return createHmac('sha256', await this.masterSecret())
      .update(`tp-api-key:${salt}`)
      .digest('base64url');
  }

  private masterSecret(): Promise<Buffer> {
    this.master ??= (async () => {
      const configured = this.ctx.config.API_KEY_SECRET;
      const text = configured ?? (await ensureSetting(this.ctx.db, MASTER_SETTING, randomBytes(32).toString('base64url')));
      return createHash('sha256').update(`tp-api-key-master:${text}`).digest();
    })();
    this.master.catch(() => (this.master = null));
    return this.master;
  }
}

/**
 * What a signed request's X-API-Signature must be (as bytes): HMAC-SHA256 with the key's secret over the
 * timestamp as sent, the method in upper case, the path with its query as sent, and the raw body.
 */
export function apiKeySignature(secret: string, timestamp: string, method: string, url: string, body: Buffer): Buffer {
  return createHmac('sha256', secret).update(timestamp).update(method.toUpperCase()).update(url).update(body).digest();
}

/** Whether an address is on a key's allow-list (addresses and CIDR ranges, IPv4-mapped IPv6 as IPv4). */
export function allowed(list: readonly string[], ip: string | undefined): boolean {
  if (!ip) return false;
  const address = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1] ?? ip;
  const type = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : null;
  if (!type) return false;
  const block = new BlockList();
  for (const entry of list) {
    const [net = '', bits] = entry.split('/');
    const family = isIPv4(net) ? 'ipv4' : isIPv6(net) ? 'ipv6' : null;
    if (!family) continue;
    if (bits === undefined) block.addAddress(net, family);
    else block.addSubnet(net, Number(bits), family);
  }
  return block.check(address, type);
}
