import { fixed, moneyStr } from '@tp/contract/decimal';
import type { LangCode } from '@tp/contract/languages';
import type { ForexDetail } from '@tp/contract/schemas/trading';
import type { AppContext } from '../../context.ts';
import { catalogueOf } from '../../http/i18n.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { type Figures, atOrBelow, figuresOf } from './figures.ts';
import { displayTime, epochSeconds, termsOf } from './order-view.ts';
import { openPositionsOf } from './repository.ts';
import type { TradingSettings } from './settings.ts';

/** Account figures, balance and account log of one user, exact, from the database at current prices. */
export class AccountService {
  constructor(
    private readonly ctx: AppContext,
    private readonly settings: TradingSettings,
  ) {}

  /**
   * The figures of TRADING-RULES.md (freeMargin is the available prepayment). Pass an open
   * transaction that already holds ledger.lockUser to read them consistently with a money movement.
   */
  async figures(userId: number, db: DbOrTx = this.ctx.db): Promise<Figures & { marginCall: boolean }> {
    const balances = await this.ctx.services.ledger.balances(db, userId);
    const positions = await openPositionsOf(db, userId);
    const figures = figuresOf(balances.balance, balances.lockBalance, positions.map(termsOf), this.ctx.services.market);
    return { ...figures, marginCall: atOrBelow(figures, this.settings.marginCallLevel) };
  }

  async balance(userId: number) {
    const b = await this.ctx.services.ledger.balances(this.ctx.db, userId);
    return { balance: moneyStr(b.balance), lock_balance: moneyStr(b.lockBalance), currency: 'USD' };
  }

  async forexDetail(userId: number): Promise<ForexDetail> {
    const f = await this.figures(userId);
    return {
      balance: moneyStr(f.balance),
      lock_balance: moneyStr(f.lockBalance),
      equity: moneyStr(f.equity),
      float_profit: moneyStr(f.floatingProfit),
      margin: moneyStr(f.openMargin),
      risk_rate: f.riskRate ? fixed(f.riskRate, 2) : null,
      prepayment_ratio: f.prepaymentRatio ? fixed(f.prepaymentRatio, 2) : null,
      available_prepayment: moneyStr(f.freeMargin),
      margin_call: f.marginCall ? 1 : 0,
      margin_call_level: this.settings.marginCallLevel.toString(),
      stop_out_level: this.settings.stopOutLevel.toString(),
    };
  }

  /** forexChange: the user's cash entries with the entry type translated around the stored memo. */
  async accountLog(userId: number, lang: LangCode, page: number, limit: number) {
    const { rows, total } = await this.ctx.services.ledger.cashEntries(this.ctx.db, userId, page, limit);
    return {
      data: rows.map((r) => ({
        Id: r.id,
        Value: moneyStr(r.amount),
        Type: r.type,
        Memo: r.memo,
        MemoTran: translateEntry(lang, r.type, r.memo),
        CreatedAt: epochSeconds(r.createdAt),
        CreatedAtTran: displayTime(r.createdAt),
      })),
      total,
    };
  }
}

/** "log.<type>" from any module's catalogue, with the memo as {{memo}}; the memo itself when no module names the type. */
export function translateEntry(lang: LangCode, type: string, memo: string): string {
  const key = `log.${type}`;
  const template = catalogueOf(lang)[key] ?? catalogueOf('en')[key];
  if (!template) return memo || type;
  return template.replace(/\{\{memo\}\}/g, memo).trim();
}
