import { dec } from '@tp/contract/decimal';
import type { AppContext, AuthStaff } from '../../context.ts';
import { invalid, notFound } from '../../http/errors.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import {
  deleteRow,
  depositRatesByCurrency,
  type FundingTable,
  findRow,
  isReferenced,
  listRows,
  saveRow,
  withdrawRatesByCurrency,
} from '../funding/index.ts';

type Row = Record<string, unknown>;
/** How far a withdraw rate and a deposit rate of one currency may disagree (a spread, not an inversion). */
const RATE_PRODUCT = { min: 0.5, max: 2 };
const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const camel = (k: string) => k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const toApi = (row: Row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [snake(k), v ?? '']));
const toColumns = (input: Row) =>
  Object.fromEntries(
    Object.entries(input)
      .filter(([k]) => k !== 'id')
      .map(([k, v]) => [camel(k), k === 'address_pattern' && !v ? null : v]),
  );

/** Deposit networks, bank wire accounts and withdraw currencies: list, create, update, delete; every change audited. */
export class FundingSetupService {
  constructor(private readonly ctx: AppContext) {}

  async list(table: FundingTable) {
    return (await listRows(this.ctx.db, table)).map((r) => toApi(r as Row));
  }

  async save(who: AuthStaff, table: FundingTable, input: Row & { id?: number }) {
    if (table === 'withdrawCurrencies') this.checkCurrency(input);
    return this.ctx.db.transaction(async (tx) => {
      const before = input.id ? await findRow(tx, table, input.id) : null;
      if (input.id && !before) throw notFound();
      await this.checkDirection(tx, table, input);
      const row = (await saveRow(tx, table, input.id, toColumns(input))) as Row;
      const after = toApi(row);
      await this.ctx.services.staff.audit(
        tx,
        who,
        `${snake(table)}.save`,
        { type: snake(table), id: row.id as number },
        before ? toApi(before as Row) : null,
        after,
      );
      return after;
    });
  }

  /** A row still referred to by a deposit, a withdrawal or a receiving account cannot be deleted (disable it instead). */
  async remove(who: AuthStaff, table: FundingTable, id: number): Promise<void> {
    await this.ctx.db.transaction(async (tx) => {
      const before = await findRow(tx, table, id);
      if (!before) throw notFound();
      if (await isReferenced(tx, table, id)) throw invalid('admin.in_use');
      await deleteRow(tx, table, id);
      await this.ctx.services.staff.audit(tx, who, `${snake(table)}.delete`, { type: snake(table), id }, toApi(before as Row), null);
    });
  }

  /**
   * A withdraw rate is units per USD, a deposit rate USD per unit: for one currency their product
   * is about 1. Far from it, the new rate was entered the wrong way round.
   */
  private async checkDirection(db: DbOrTx, table: FundingTable, input: Row) {
    const pairs =
      table === 'withdrawCurrencies'
        ? (await depositRatesByCurrency(db))
            .filter((d) => d.code === String(input.code).toUpperCase())
            .map((d) => [input.units_per_usd, d.usdPerUnit])
        : (await withdrawRatesByCurrency(db))
            .filter((w) => w.code === String(table === 'bankWires' ? input.currency : input.currency_code).toUpperCase())
            .map((w) => [w.unitsPerUsd, input.usd_per_unit]);
    for (const [unitsPerUsd, usdPerUnit] of pairs) {
      const product = dec(unitsPerUsd as string).mul(usdPerUnit as string);
      if (product.lt(RATE_PRODUCT.min) || product.gt(RATE_PRODUCT.max)) throw invalid('admin.rate_direction');
    }
  }

  private checkCurrency(input: Row) {
    if (dec(input.min_amount as string).gt(input.max_amount as string)) throw invalid('admin.amount_range');
    const pattern = input.address_pattern as string;
    if (pattern) {
      try {
        new RegExp(pattern);
      } catch {
        throw invalid('admin.invalid_pattern');
      }
    }
  }
}
