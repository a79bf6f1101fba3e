import { fixed } from '@tp/contract/decimal';
import type { Notice, NoticeKind } from '@tp/contract/schemas/trading';
import type { AppContext } from '../../../context.ts';
import { publishNotice } from './pushes.ts';

/** The account events of one user a module keeps (newest first, at most `limit`), with how many there are. */
export type NoticeSource = (userId: number, limit: number) => Promise<{ rows: Notice[]; total: number }>;

/** What an account notice (deposit, withdrawal, identity, support) carries besides its kind and time. */
export interface AccountNoticeDetail {
  /** Money notices: the amount (any decimal; sent with 2 decimals) and its currency. */
  amount?: string;
  currency?: string;
  /** A rejection: the reason staff gave (left out when blank). */
  reason?: string | null;
}

/** A notice about the account rather than an order: the order fields are 0 or empty (as a margin call's). */
export function accountNotice(kind: NoticeKind, at: Date, detail: AccountNoticeDetail = {}): Notice {
  const notice: Notice = {
    kind,
    order_id: 0,
    forex_id: 0,
    symbol: '',
    order_type: 0,
    lots: '0',
    price: '0',
    profit: '0',
    time: Math.floor(at.getTime() / 1000),
  };
  if (detail.amount !== undefined) notice.amount = fixed(detail.amount, 2);
  if (detail.currency !== undefined) notice.currency = detail.currency;
  const reason = detail.reason?.trim();
  if (reason) notice.reason = reason;
  return notice;
}

/**
 * Account events in the trader's notifications: the modules that own them (funding, identity, support)
 * add a source the notification list reads, and announce each new one with the same NOTICE push as a
 * close or fill (kept for replay like them).
 */
export class AccountNotices {
  private readonly sources: NoticeSource[] = [];

  constructor(private readonly ctx: AppContext) {}

  addSource(source: NoticeSource): void {
    this.sources.push(source);
  }

  /** The newest `limit` account notices of every source, newest first, and how many there are in all. */
  async list(userId: number, limit: number): Promise<{ rows: Notice[]; total: number }> {
    const pages = await Promise.all(this.sources.map((source) => source(userId, limit)));
    return {
      rows: pages.flatMap((p) => p.rows).sort((a, b) => b.time - a.time),
      total: pages.reduce((n, p) => n + p.total, 0),
    };
  }

  /** Pushes a notice that was just committed to the user's connections. */
  publish(userId: number, notice: Notice): void {
    publishNotice(this.ctx, userId, notice);
  }
}
