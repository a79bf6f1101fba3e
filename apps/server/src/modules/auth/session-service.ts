import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, gt, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import type { SessionEndReason } from '@tp/contract/constants';
import type { AppContext, AuthStaff, AuthUser } from '../../context.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { sessions, users } from './schema.ts';
import { BusChannels, type SessionEnded } from '../../platform/bus-channels.ts';

const CACHE_MS = 3_000;

/** An active staff member by id; the admin module, which owns the staff table, provides it. */
export type ActiveStaffLookup = (db: DbOrTx, staffId: number) => Promise<Omit<AuthStaff, 'sessionId' | 'expiresAt'> | undefined>;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Opaque session tokens: 256 random bits, stored only as their SHA-256, with an expiry; revocable. */
export class SessionService {
  private readonly userCache = new Map<string, { user: AuthUser; until: number }>();
  private activeStaff: ActiveStaffLookup = async () => undefined;

  constructor(private readonly ctx: AppContext) {
    // Revocations made on any server drop the cached session everywhere.
    ctx.bus.subscribe(BusChannels.sessionEnded, () => this.userCache.clear());
  }

  async create(subject: { userId: number } | { staffId: number }, meta: { ip?: string; userAgent?: string } = {}): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const hours = 'staffId' in subject ? this.ctx.config.STAFF_SESSION_TTL_HOURS : this.ctx.config.SESSION_TTL_HOURS;
    await this.ctx.db.insert(sessions).values({
      userId: 'userId' in subject ? subject.userId : null,
      staffId: 'staffId' in subject ? subject.staffId : null,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + hours * 3_600_000),
      ip: meta.ip,
      userAgent: meta.userAgent?.slice(0, 300),
    });
    return token;
  }

  async resolveUser(token: string): Promise<AuthUser | null> {
    const key = hashToken(token);
    const hit = this.userCache.get(key);
    if (hit && hit.until > Date.now()) return hit.user;
    const [row] = await this.ctx.db
      .select({
        sessionId: sessions.id,
        expiresAt: sessions.expiresAt,
        id: users.id,
        uid: users.uid,
        email: users.email,
        isDemo: users.isDemo,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.tokenHash, key), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date()), eq(users.status, 1)))
      .limit(1);
    if (!row) {
      this.userCache.delete(key);
      return null;
    }
    if (this.userCache.size > 50_000) this.userCache.clear();
    this.userCache.set(key, { user: row, until: Date.now() + CACHE_MS });
    return row;
  }

  /** Called by the admin module at start: staff sessions resolve to the members it finds active. */
  useStaffLookup(lookup: ActiveStaffLookup): void {
    this.activeStaff = lookup;
  }

  async resolveStaff(token: string): Promise<AuthStaff | null> {
    const [session] = await this.ctx.db
      .select({ sessionId: sessions.id, expiresAt: sessions.expiresAt, staffId: sessions.staffId })
      .from(sessions)
      .where(
        and(
          eq(sessions.tokenHash, hashToken(token)),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, new Date()),
          isNotNull(sessions.staffId),
        ),
      )
      .limit(1);
    if (!session?.staffId) return null;
    const member = await this.activeStaff(this.ctx.db, session.staffId);
    return member ? { ...member, sessionId: session.sessionId, expiresAt: session.expiresAt } : null;
  }

  async revoke(sessionId: number, reason: SessionEndReason = 'logout'): Promise<void> {
    const ended = await this.ctx.db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id });
    this.afterRevoke(ended, reason);
  }

  /** Ends every session of a user, except optionally the one making the change. */
  async revokeAllForUser(userId: number, reason: SessionEndReason, exceptSessionId?: number): Promise<void> {
    const conds = [eq(sessions.userId, userId), isNull(sessions.revokedAt)];
    if (exceptSessionId) conds.push(ne(sessions.id, exceptSessionId));
    this.afterRevoke(
      await this.ctx.db
        .update(sessions)
        .set({ revokedAt: new Date() })
        .where(and(...conds))
        .returning({ id: sessions.id }),
      reason,
    );
  }

  /** Ends every session of a staff member. */
  async revokeAllForStaff(staffId: number, reason: SessionEndReason): Promise<void> {
    const conds = and(eq(sessions.staffId, staffId), isNull(sessions.revokedAt));
    this.afterRevoke(await this.ctx.db.update(sessions).set({ revokedAt: new Date() }).where(conds).returning({ id: sessions.id }), reason);
  }

  /** The user's active sessions, newest first; at most `limit` when given. */
  async listForUser(userId: number, limit?: number) {
    const query = this.ctx.db
      .select({
        id: sessions.id,
        ip: sessions.ip,
        userAgent: sessions.userAgent,
        createdAt: sessions.createdAt,
        expiresAt: sessions.expiresAt,
      })
      .from(sessions)
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`)))
      .orderBy(desc(sessions.id));
    return limit === undefined ? query : query.limit(limit);
  }

  private afterRevoke(ended: { id: number }[], reason: SessionEndReason) {
    this.userCache.clear();
    if (ended.length) this.ctx.bus.publish(BusChannels.sessionEnded, { sessionIds: ended.map((r) => r.id), reason } satisfies SessionEnded);
  }
}
