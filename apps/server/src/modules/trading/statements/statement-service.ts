import { and, asc, count, eq, gte, lt, sum } from 'drizzle-orm';
import { OrderStatus, OrderType } from '@tp/contract/constants';
import { type Dec, dec, fixed, moneyStr, ZERO } from '@tp/contract/decimal';
import type { LangCode } from '@tp/contract/languages';
import { STATEMENT_MAX_ROWS, type Statement, type StatementPosition } from '@tp/contract/schemas/statement';
import type { AppContext } from '../../../context.ts';
import { userStatementEntries } from '../../ledger/index.ts';
import { translateEntry } from '../account/account-service.ts';
import { epochSeconds } from '../views/order-view.ts';
import { orders } from '../db/schema.ts';

/**
 * Moves between the user's cash and locked accounts (margin and pending reservations): each nets to
 * zero on the account's money, so a statement does not list them as balance changes.
 */
const TRANSFER_TYPES = ['margin_lock', 'margin_release', 'pending_reserve', 'pending_release'];

/** Which total each entry type adds to; any other type (adjustment, writeoff, demo funding) is an adjustment. */
const TOTAL_OF: Record<string, keyof Omit<Statement['totals'], 'net_change'>> = {
  deposit: 'deposit',
  withdraw: 'withdrawal',
  withdraw_refund: 'withdrawal',
  profit: 'profit',
  trade_fee: 'fee',
  swap: 'swap',
};

/** Account statements of the session's user: only their own ledger entries and orders are read. */
export class StatementService {
  constructor(private readonly ctx: AppContext) {}

  async statement(userId: number, lang: LangCode, start: number, end: number): Promise<Statement> {
    const from = new Date(start * 1000);
    const to = new Date(end * 1000);
    const [ledger, closed] = await Promise.all([
      userStatementEntries(this.ctx.db, userId, from, to, TRANSFER_TYPES, STATEMENT_MAX_ROWS),
      this.closedPositions(userId, from, to),
    ]);

    let running = dec(ledger.opening);
    const log = ledger.rows.map((r) => {
      running = running.plus(r.amount);
      return {
        Id: r.id,
        Type: r.type,
        Memo: r.memo,
        MemoTran: translateEntry(lang, r.type, r.memo),
        Value: moneyStr(r.amount),
        Balance: moneyStr(running),
        CreatedAt: epochSeconds(r.createdAt),
      };
    });

    const sums = { deposit: ZERO, withdrawal: ZERO, profit: ZERO, fee: ZERO, swap: ZERO, adjustment: ZERO };
    let entries = 0;
    for (const t of ledger.totals) {
      const key = TOTAL_OF[t.type] ?? 'adjustment';
      sums[key] = sums[key].plus(t.total);
      entries += t.count;
    }
    const totals = Object.fromEntries(Object.entries(sums).map(([k, v]) => [k, moneyStr(v)])) as Omit<Statement['totals'], 'net_change'>;

    return {
      start,
      end,
      currency: 'USD',
      opening_balance: moneyStr(ledger.opening),
      closing_balance: moneyStr(ledger.closing),
      totals: { ...totals, net_change: moneyStr(dec(ledger.closing).minus(ledger.opening)) },
      log,
      positions: closed.rows,
      position_totals: closed.totals,
      truncated: entries > log.length || closed.totals.count > closed.rows.length,
    };
  }

  /** Positions of the user closed in [from, to), oldest close first, and their sums over the whole range. */
  private async closedPositions(userId: number, from: Date, to: Date) {
    const where = and(
      eq(orders.userId, userId),
      eq(orders.status, OrderStatus.CLOSED),
      gte(orders.completedAt, from),
      lt(orders.completedAt, to),
    );
    const db = this.ctx.db;
    const [rows, [agg]] = await Promise.all([
      db.select().from(orders).where(where).orderBy(asc(orders.completedAt), asc(orders.id)).limit(STATEMENT_MAX_ROWS),
      db
        .select({
          n: count(),
          lots: sum(orders.quantity),
          profit: sum(orders.profit),
          fee: sum(orders.fee),
          swap: sum(orders.swap),
        })
        .from(orders)
        .where(where),
    ]);
    const market = this.ctx.services.market;
    const positions: StatementPosition[] = rows.map((row) => {
      const sym = market.symbol(row.symbolId);
      const precision = sym?.pricePrecision ?? 5;
      const open = dec(row.price ?? 0);
      const close = dec(row.closePrice ?? 0);
      const move: Dec = row.orderType === OrderType.BUY ? close.minus(open) : open.minus(close);
      return {
        Id: row.id,
        ForexId: row.symbolId,
        ShowCode: sym?.showCode ?? '',
        PricePrecision: precision,
        OrderType: row.orderType,
        Quantity: dec(row.quantity).toString(),
        OpenPrice: fixed(open, precision),
        ClosePrice: fixed(close, precision),
        TradeFee: moneyStr(row.fee),
        Swap: moneyStr(row.swap),
        FactProfits: moneyStr(row.profit),
        Points: fixed(move.times(dec(10).pow(precision)), 0),
        ClosedType: row.closedType ?? 0,
        OpenTime: epochSeconds(row.openedAt ?? row.createdAt),
        CloseTime: epochSeconds(row.completedAt),
      };
    });
    return {
      rows: positions,
      totals: {
        count: Number(agg?.n ?? 0),
        lots: dec(agg?.lots ?? 0).toString(),
        profit: moneyStr(agg?.profit ?? 0),
        fee: moneyStr(agg?.fee ?? 0),
        swap: moneyStr(agg?.swap ?? 0),
      },
    };
  }
}
