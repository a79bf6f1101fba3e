import { fixed, moneyStr } from '@tp/contract/decimal';
import type { ForexDetail } from '@tp/contract/schemas/trading';
import type { Figures } from '../engine/figures.ts';
import type { AccountTerms } from '../admission/groups.ts';

/** The account's figures in the wire shape of forexDetail. */
export function forexDetailView(
  f: Figures & { marginCall: boolean },
  settings: Pick<AccountTerms, 'marginCallLevel' | 'stopOutLevel'>,
): ForexDetail {
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
    margin_call_level: settings.marginCallLevel.toString(),
    stop_out_level: settings.stopOutLevel.toString(),
  };
}
