import type { TFunction } from 'i18next';
import { ACCOUNT_NOTICE_KINDS, type Alert, type Notice } from '@tp/contract/schemas/trading';
import { formatMoney } from '../../../lib/format';
import type { NotificationItem } from '../api/get-notices';

const CLOSES = new Set(['take_profit', 'stop_loss', 'trailing_stop', 'stop_out', 'staff_close', 'copy_close']);

/** Numbers keep their sign on the left inside right-to-left sentences (Unicode isolates). */
const ltr = (text: string) => `\u2066${text}\u2069`;
const signedMoney = (value: string) => ltr(`${Number(value) > 0 ? '+' : ''}${formatMoney(value)}`);

const ACCOUNT_KINDS: ReadonlySet<string> = new Set(ACCOUNT_NOTICE_KINDS);

export type NoticeFields = Pick<Notice, 'kind' | 'symbol' | 'price' | 'profit' | 'amount' | 'currency' | 'reason'>;

/** "Deposit approved: 100.00 USDT", "Withdrawal rejected: 50.00 USD. Reason: …", "Identity verified". */
function accountText(t: TFunction, notice: NoticeFields): string {
  const kind = t(`account.notice_kinds.${notice.kind}`);
  const text = notice.amount ? t('account.notice_money', { kind, amount: ltr(`${notice.amount} ${notice.currency ?? ''}`.trim()) }) : kind;
  return notice.reason ? t('account.notice_with_reason', { text, reason: notice.reason }) : text;
}

/** "Take-profit hit: EUR/USD closed at 1.08600, result +12.50", in the trader's language. */
export function noticeText(t: TFunction, notice: NoticeFields): string {
  if (ACCOUNT_KINDS.has(notice.kind)) return accountText(t, notice);
  const kind = t(`account.notice_kinds.${notice.kind}`);
  if (CLOSES.has(notice.kind))
    return t('account.notice_close', { kind, symbol: notice.symbol, price: ltr(notice.price), result: signedMoney(notice.profit) });
  if (notice.kind === 'demo_reset') return kind;
  if (notice.kind === 'margin_call') return t('account.notice_margin_call', { level: ltr(notice.price) });
  return t('account.notice_order', { kind, symbol: notice.symbol, price: ltr(notice.price) });
}

/** "Price alert: EURUSD bid reached 1.09000 (set at 1.09000)". */
export function alertText(t: TFunction, alert: Pick<Alert, 'symbol' | 'side' | 'price' | 'fired_price'>): string {
  return t('account.alert_fired', {
    symbol: alert.symbol,
    side: t(`account.side_${alert.side}`),
    price: ltr(alert.fired_price),
    target: ltr(alert.price),
  });
}

export const itemText = (t: TFunction, item: NotificationItem): string =>
  item.kind === 'notice' ? noticeText(t, item.notice) : alertText(t, item.alert);
