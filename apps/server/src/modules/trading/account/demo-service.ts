import { randomInt } from 'node:crypto';
import { ClosedType, OrderStatus } from '@tp/contract/constants';
import { ZERO, moneyStr } from '@tp/contract/decimal';
import type { AppContext, AuthUser } from '../../../context.ts';
import { fail } from '../../../http/errors.ts';
import { insertUser } from '../../auth/index.ts';
import type { OrderOps } from '../settlement/order-ops.ts';
import { type OrderRow, liveOrdersOf } from '../db/repository.ts';
import type { Settlement } from '../settlement/settlement.ts';
import type { TradingSettings } from '../admission/settings.ts';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const newDemoId = () => `demo_${Array.from({ length: 16 }, () => BASE62[randomInt(62)]).join('')}`;

/** Demo accounts: created without registration, funded and reset against the house's demo funding. */
export class DemoService {
  constructor(
    private readonly ctx: AppContext,
    private readonly settings: TradingSettings,
    private readonly settlement: Settlement,
    private readonly ops: OrderOps,
  ) {}

  async create() {
    const initial = this.settings.demoInitialBalance;
    return this.ctx.db.transaction(async (tx) => {
      const user = await insertUser(tx, { isDemo: true, demoId: newDemoId() });
      await this.ctx.services.ledger.openUserAccounts(tx, user.id, true);
      const wallet = { userId: user.id, isDemo: true, cash: ZERO, locked: ZERO };
      await this.settlement.demoFunding(tx, wallet, initial, 'demo_funding', `demo:init:${user.id}`);
      return { demo_id: user.demoId!, id: user.id, uid: user.uid, is_demo: 1 as const, balance: moneyStr(initial) };
    });
  }

  /**
   * Closes every open position (closed_type 6) and cancels every pending order, then brings the
   * cash back to exactly the initial balance. A demo account is being wiped, so positions close at
   * the last quote even outside market hours.
   */
  async reset(user: AuthUser) {
    if (!user.isDemo) throw fail('trading.demo_only');
    const initial = this.settings.demoInitialBalance;
    return this.ops.forUser(user.id, true, async (tx, w, changes) => {
      const done: OrderRow[] = [];
      for (const order of await liveOrdersOf(tx, user.id)) {
        const finished =
          order.status === OrderStatus.PENDING
            ? await this.ops.cancel(tx, w, order, 'demo_reset', ClosedType.DEMO_RESET)
            : ((await this.ops.closeAtMarket(tx, w, order, ClosedType.DEMO_RESET, true)) ??
              (await this.ops.close(tx, w, order, { bid: order.price!, ask: order.price! }, ZERO, ClosedType.DEMO_RESET)));
        if (finished) done.push(finished);
      }
      const delta = initial.minus(w.cash);
      if (!delta.isZero()) await this.settlement.demoFunding(tx, w, delta, 'demo_reset');
      changes.push({ type: 'closed', userId: user.id, orders: done });
      return { balance: moneyStr(w.cash), lock_balance: moneyStr(w.locked) };
    });
  }
}
