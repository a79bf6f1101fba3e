import { inArray } from 'drizzle-orm';
import { type Dec, dec } from '@tp/contract/decimal';
import { TradeFeeType } from '@tp/contract/constants';
import type { DbOrTx } from '../../../platform/db/client.ts';
import { settings } from '../../../platform/db/platform-schema.ts';
import { type AccountTerms, GroupBook } from './groups.ts';

const KEYS = [
  'trade_fee_type',
  'margin_call_level',
  'stop_out_level',
  'negative_balance_protection',
  'demo_initial_balance',
  'max_open_positions',
  'max_pending_orders',
];
/** Per-account caps: far above what a retail account holds, they bound the work one account can make. */
const DEFAULT_MAX_OPEN_POSITIONS = 200;
const DEFAULT_MAX_PENDING_ORDERS = 200;
const DECIMAL = /^\d{1,12}(\.\d{1,6})?$/;

/** The trading settings staff can change, kept in memory and reloaded by the engine's timer. */
export class TradingSettings {
  tradeFeeType: number = TradeFeeType.PER_LOT;
  marginCallLevel: Dec = dec(100);
  stopOutLevel: Dec = dec(50);
  negativeBalanceProtection = true;
  demoInitialBalance: Dec;
  maxOpenPositions = DEFAULT_MAX_OPEN_POSITIONS;
  maxPendingOrders = DEFAULT_MAX_PENDING_ORDERS;
  /** Account groups, reloaded with the settings (their null levels and caps are the settings above). */
  readonly groups = new GroupBook();

  constructor(defaultDemoBalance: string) {
    this.demoInitialBalance = dec(defaultDemoBalance);
  }

  /** A user's account-wide terms: their group's, the settings above filling its nulls. */
  accountTerms(userId: number, isDemo: boolean): AccountTerms {
    return this.groups.accountTerms(userId, isDemo, this);
  }

  async reload(db: DbOrTx): Promise<void> {
    await this.groups.reload(db);
    const rows = await db.select().from(settings).where(inArray(settings.key, KEYS));
    const value = (key: string) => rows.find((r) => r.key === key)?.value.trim();
    const decimal = (key: string, fallback: Dec) => {
      const v = value(key);
      return v && DECIMAL.test(v) ? dec(v) : fallback;
    };
    this.tradeFeeType =
      value('trade_fee_type') === '1'
        ? TradeFeeType.PER_LOT
        : value('trade_fee_type')
          ? TradeFeeType.PERCENT_OF_MARGIN
          : TradeFeeType.PER_LOT;
    this.marginCallLevel = decimal('margin_call_level', dec(100));
    this.stopOutLevel = decimal('stop_out_level', dec(50));
    this.negativeBalanceProtection = (value('negative_balance_protection') ?? '1') === '1';
    this.demoInitialBalance = decimal('demo_initial_balance', this.demoInitialBalance);
    const count = (key: string, fallback: number) => {
      const v = value(key);
      return v && /^\d{1,6}$/.test(v) ? Number(v) : fallback;
    };
    this.maxOpenPositions = count('max_open_positions', DEFAULT_MAX_OPEN_POSITIONS);
    this.maxPendingOrders = count('max_pending_orders', DEFAULT_MAX_PENDING_ORDERS);
  }
}
