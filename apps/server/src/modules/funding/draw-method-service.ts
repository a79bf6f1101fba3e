import type { AppContext } from '../../context.ts';
import { fail, invalid, notFound } from '../../http/errors.ts';
import {
  activeDrawMethods,
  countActiveDrawMethods,
  type DrawMethodRow,
  findWithdrawCurrency,
  insertDrawMethod,
  softDeleteDrawMethod,
  type WithdrawCurrencyRow,
  withdrawCurrenciesById,
} from './draw-method-repository.ts';
import { type BankFields, bankAccountProblem, coinAddressProblem, normalizeSwift } from './draw-method-rules.ts';

export const DrawMethodType = { COIN: 1, BANK: 2 } as const;
const MAX_ACTIVE_METHODS = 20;

export interface BindRequest extends Partial<BankFields> {
  type: number;
  drawCurrencyId: number;
  dcAddress?: string;
}

/** Receiving accounts a user withdraws to: coin addresses and bank accounts, each tied to one withdrawal currency. */
export class DrawMethodService {
  constructor(private readonly ctx: AppContext) {}

  async list(userId: number, filter: { type?: number; drawCurrencyId?: number }) {
    const methods = await activeDrawMethods(this.ctx.db, userId, filter);
    return { methods, currencies: await withdrawCurrenciesById(this.ctx.db) };
  }

  async bind(userId: number, req: BindRequest): Promise<{ method: DrawMethodRow; currency: WithdrawCurrencyRow }> {
    const currency = await findWithdrawCurrency(this.ctx.db, req.drawCurrencyId);
    if (!currency?.enabled || currency.type !== req.type) throw fail('funding.withdraw_currency_unavailable');
    const existing = await activeDrawMethods(this.ctx.db, userId, { drawCurrencyId: currency.id });
    if ((await countActiveDrawMethods(this.ctx.db, userId)) >= MAX_ACTIVE_METHODS)
      throw fail('funding.too_many_methods', { max: MAX_ACTIVE_METHODS });

    if (req.type === DrawMethodType.COIN) {
      const problem = coinAddressProblem(req.dcAddress, currency.addressPattern);
      if (problem) throw invalid(problem, { network: `${currency.code} ${currency.protocol}`.trim() });
      if (existing.some((m) => m.dcAddress === req.dcAddress)) throw fail('funding.method_exists');
      const method = await insertDrawMethod(this.ctx.db, { userId, type: req.type, drawCurrencyId: currency.id, dcAddress: req.dcAddress });
      return { method, currency };
    }

    const problem = bankAccountProblem(req);
    if (problem) throw invalid(problem);
    const swift = normalizeSwift(req.bankSwift!);
    if (existing.some((m) => m.payeeAccount === req.payeeAccount && m.bankSwift === swift)) throw fail('funding.method_exists');
    const method = await insertDrawMethod(this.ctx.db, {
      userId,
      type: req.type,
      drawCurrencyId: currency.id,
      bankName: req.bankName,
      bankAddress: req.bankAddress,
      bankSwift: swift,
      payeeName: req.payeeName,
      payeeAccount: req.payeeAccount,
    });
    return { method, currency };
  }

  async remove(userId: number, id: number): Promise<void> {
    if (!(await softDeleteDrawMethod(this.ctx.db, userId, id))) throw notFound();
  }
}
