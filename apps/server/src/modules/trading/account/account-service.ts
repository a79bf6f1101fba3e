import { moneyStr } from '@tp/contract/decimal';
import type { LangCode } from '@tp/contract/languages';
import type { AppContext } from '../../../context.ts';
import { catalogueOf } from '../../../http/i18n.ts';
import type { DbOrTx } from '../../../platform/db/client.ts';
import { type Figures, atOrBelow, figuresOf } from '../engine/figures.ts';
import { displayTime, epochSeconds, termsOf } from '../views/order-view.ts';
import { forexDetailView } from '../views/account-view.ts';
import { openPositionsOf } from '../db/repository.ts';
import type { TradingSettings } from '../admission/settings.ts';

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
    // In the caller's transaction: on PGlite (one connection) a read outside it would wait for it forever.
    const terms = await this.termsOf(userId, db);
    return { ...figures, marginCall: atOrBelow(figures, terms.marginCallLevel) };
  }

  /** The account-wide terms of the user's group (its levels, the house's where it sets none). */
  private async termsOf(userId: number, db: DbOrTx = this.ctx.db) {
    await this.settings.groups.ensureUsers(db, [userId]);
    // The user's group is known after ensureUsers: the kind only picks a default group for an unknown user.
    return this.settings.accountTerms(userId, false);
  }

  async balance(userId: number) {
    const b = await this.ctx.services.ledger.balances(this.ctx.db, userId);
    return { balance: moneyStr(b.balance), lock_balance: moneyStr(b.lockBalance), currency: 'USD' };
  }

  async forexDetail(userId: number) {
    return forexDetailView(await this.figures(userId), await this.termsOf(userId));
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
