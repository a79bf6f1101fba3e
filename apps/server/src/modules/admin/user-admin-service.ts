import { dec, moneyStr } from '@tp/contract/decimal';
import type { AdminOrder, AdminUser } from '@tp/contract/schemas/admin';
import type { AppContext, AuthStaff } from '../../context.ts';
import { fail, notFound } from '../../http/errors.ts';
import { InsufficientFundsError } from '../ledger/index.ts';
import { findUserById as findUser, searchUsers, setUserStatus, userContacts, type UserRow } from '../auth/index.ts';
import { reviewStatusOf } from '../identity/index.ts';
import { userLedgerEntries } from '../ledger/index.ts';
import { listOrders, type OrderRow } from '../trading/index.ts';
import { claimAdjustmentKey, findAdjustment } from './user-admin-repository.ts';

/** Most active sessions of one user the back office lists (newest first). */
export const ADMIN_SESSIONS_MAX = 100;

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : '');

type OrderListRow = { order: OrderRow; code: string | null; email: string | null; uid: string | null };
export const adminOrderView = ({ order: o, code, email, uid }: OrderListRow): AdminOrder => ({
  id: o.id,
  user_id: o.userId,
  user: email ?? uid ?? '',
  symbol: code ?? String(o.symbolId),
  is_demo: o.isDemo ? 1 : 0,
  order_type: o.orderType,
  status: o.status,
  quantity: o.quantity,
  multiple: o.leverage,
  origin_price: o.originPrice ?? '',
  price: o.price ?? '',
  update_price: o.closePrice ?? '',
  caution_money: o.margin,
  trade_fee: o.fee,
  fact_profits: o.profit,
  closed_type: o.closedType ?? 0,
  created_at: iso(o.createdAt),
  completed_at: iso(o.completedAt),
  reversed_at: iso(o.reversedAt),
  reversal_reason: o.reversalReason ?? '',
});

/** Staff work on traders' accounts: search, profile, sessions, ledger, orders, status and balance adjustments. */
export class UserAdminService {
  constructor(private readonly ctx: AppContext) {}

  async search(q: string, page: number, limit: number) {
    const { rows, total } = await searchUsers(this.ctx.db, q, page, limit);
    return { data: await this.views(rows), total };
  }

  async profile(userId: number): Promise<AdminUser> {
    const [view] = await this.views([await this.mustFind(userId)]);
    return view!;
  }

  async sessions(userId: number) {
    await this.mustFind(userId);
    // Every login makes a session: the newest ADMIN_SESSIONS_MAX of them, so the answer stays bounded.
    const rows = await this.ctx.services.sessions.listForUser(userId, ADMIN_SESSIONS_MAX);
    return rows.map((s) => ({
      id: s.id,
      ip: s.ip ?? '',
      user_agent: s.userAgent ?? '',
      created_at: iso(s.createdAt),
      expires_at: iso(s.expiresAt),
    }));
  }

  async endSessions(who: AuthStaff, userId: number, sessionId?: number): Promise<void> {
    await this.mustFind(userId);
    if (sessionId) {
      const open = await this.ctx.services.sessions.listForUser(userId);
      if (!open.some((s) => s.id === sessionId)) throw notFound();
      await this.ctx.services.sessions.revoke(sessionId, 'ended_by_staff');
    } else {
      await this.ctx.services.sessions.revokeAllForUser(userId, 'ended_by_staff');
    }
    await this.ctx.services.staff.audit(this.ctx.db, who, 'user.end_sessions', { type: 'user', id: userId }, null, {
      session_id: sessionId ?? 'all',
    });
  }

  async apiKeys(userId: number) {
    await this.mustFind(userId);
    return this.ctx.services.apiKeys.list(userId);
  }

  async revokeApiKey(who: AuthStaff, userId: number, id: number): Promise<void> {
    await this.mustFind(userId);
    await this.ctx.services.apiKeys.revokeByStaff(who, userId, id);
  }

  async ledger(userId: number, page: number, limit: number) {
    await this.mustFind(userId);
    const { rows, total } = await userLedgerEntries(this.ctx.db, userId, page, limit);
    return {
      data: rows.map((r) => ({ id: r.id, account: r.account, amount: r.amount, type: r.type, memo: r.memo, created_at: iso(r.createdAt) })),
      total,
    };
  }

  async orders(filter: { userId?: number; symbolId?: number; statuses?: number[] }, page: number, limit: number) {
    const { rows, total } = await listOrders(this.ctx.db, filter, page, limit);
    const contacts = await userContacts(this.ctx.db, [...new Set(rows.map((o) => o.userId))]);
    const market = this.ctx.services.market;
    const data = rows.map((order) => {
      const who = contacts.get(order.userId);
      return adminOrderView({
        order,
        code: market.symbol(order.symbolId)?.showCode ?? null,
        email: who?.email ?? null,
        uid: who?.uid ?? null,
      });
    });
    return { data, total };
  }

  /** Disabling also ends every session of the user, and the socket logins of their API keys. */
  async setStatus(who: AuthStaff, userId: number, status: number): Promise<AdminUser> {
    const before = await this.mustFind(userId);
    await this.ctx.db.transaction(async (tx) => {
      await setUserStatus(tx, userId, status);
      await this.ctx.services.staff.audit(
        tx,
        who,
        status ? 'user.enable' : 'user.disable',
        { type: 'user', id: userId },
        { status: before.status },
        { status },
      );
    });
    if (!status) {
      await this.ctx.services.sessions.revokeAllForUser(userId, 'disabled');
      await this.ctx.services.apiKeys.endSockets(userId, 'disabled');
    }
    return this.profile(userId);
  }

  /**
   * One ledger transaction between the user's cash and the house adjustment account, once per
   * (user, client key); the same key with another amount or reason is refused, not taken as a repeat.
   */
  async adjustBalance(who: AuthStaff, input: { user_id: number; amount: string; reason: string; key: string }) {
    const user = await this.mustFind(input.user_id);
    const ledger = this.ctx.services.ledger;
    try {
      return await this.ctx.db.transaction(async (tx) => {
        const before = await ledger.lockUser(tx, user.id);
        const claimed = await claimAdjustmentKey(tx, {
          userId: user.id,
          key: input.key,
          amount: input.amount,
          reason: input.reason,
          staffId: who.id,
        });
        if (!claimed) {
          const earlier = await findAdjustment(tx, user.id, input.key);
          if (!earlier || !dec(earlier.amount).eq(input.amount) || earlier.reason !== input.reason) throw fail('adjust_key_reused');
          return { balance: moneyStr(before.balance), lock_balance: moneyStr(before.lockBalance), duplicate: true };
        }
        if (before.balance.plus(input.amount).isNegative()) throw fail('admin.adjust_negative');
        await ledger.post(tx, {
          kind: 'adjustment',
          isDemo: user.isDemo,
          refType: 'user',
          refId: user.id,
          idemKey: `admin_adjust:${user.id}:${input.key}`,
          duplicateIsError: true,
          postings: [
            { account: { userId: user.id, kind: 'cash' }, amount: input.amount, type: 'adjustment', memo: input.reason },
            { account: { house: 'adjustment' }, amount: dec(input.amount).negated(), type: 'adjustment', memo: input.reason },
          ],
        });
        const after = await ledger.balances(tx, user.id);
        await this.ctx.services.staff.audit(
          tx,
          who,
          'user.adjust_balance',
          { type: 'user', id: user.id },
          { balance: moneyStr(before.balance) },
          { balance: moneyStr(after.balance), amount: input.amount, reason: input.reason },
        );
        return { balance: moneyStr(after.balance), lock_balance: moneyStr(after.lockBalance), duplicate: false };
      });
    } catch (err) {
      if (err instanceof InsufficientFundsError) throw fail('admin.adjust_negative');
      throw err;
    }
  }

  private async mustFind(userId: number): Promise<UserRow> {
    const user = await findUser(this.ctx.db, userId);
    if (!user) throw notFound();
    return user;
  }

  private async views(rows: UserRow[]): Promise<AdminUser[]> {
    const ids = rows.map((r) => r.id);
    const [balances, reviews] = await Promise.all([
      this.ctx.services.ledger.balancesOf(this.ctx.db, ids),
      reviewStatusOf(this.ctx.db, ids),
    ]);
    return rows.map((u) => ({
      id: u.id,
      uid: u.uid,
      email: u.email ?? '',
      mobile: u.mobile ?? '',
      is_demo: u.isDemo ? 1 : 0,
      status: u.status,
      invite_code: u.inviteCode,
      review_status: reviews.get(u.id) ?? 0,
      balance: moneyStr(balances.get(u.id)?.balance ?? 0),
      lock_balance: moneyStr(balances.get(u.id)?.lockBalance ?? 0),
      created_at: iso(u.createdAt),
      group_id: u.groupId,
    }));
  }
}
