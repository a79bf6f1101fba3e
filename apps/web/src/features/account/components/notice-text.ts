import type { TFunction } from 'i18next';
import type { Alert, Notice } from '@tp/contract/schemas/trading';
import { formatMoney } from '../../../lib/format';
import type { NotificationItem } from '../api/get-notices';

const CLOSES = new Set(['take_profit', 'stop_loss', 'trailing_stop', 'stop_out', 'staff_close']);

/** Numbers keep their sign on the left inside right-to-left sentences (Unicode isolates). */
const ltr = (text: string) => `\u2066${text}\u2069`;
const signedMoney = (value: string) => ltr(`${Number(value) > 0 ? '+' : ''}${formatMoney(value)}`);

/** "Take-profit hit: EUR/USD closed at 1.08600, result +12.50", in the trader's language. */
export function noticeText(t: TFunction, notice: Pick<Notice, 'kind' | 'symbol' | 'price' | 'profit'>): string {
  const kind = t(`account.notice_kinds.${notice.kind}`);
  if (CLOSES.has(notice.kind)) return t('account.notice_close', { kind, symbol: notice.symbol, price: ltr(notice.price), result: signedMoney(notice.profit) });
  if (notice.kind === 'demo_reset') return kind;
  if (notice.kind === 'margin_call') return t('account.notice_margin_call', { level: ltr(notice.price) });
  return t('account.notice_order', { kind, symbol: notice.symbol, price: ltr(notice.price) });
}

/** "Price alert: EURUSD bid reached 1.09000 (set at 1.09000)". */
export function alertText(t: TFunction, alert: Pick<Alert, 'symbol' | 'side' | 'price' | 'fired_price'>): string {
  return t('account.alert_fired', { symbol: alert.symbol, side: t(`account.side_${alert.side}`), price: ltr(alert.fired_price), target: ltr(alert.price) });
}

export const itemText = (t: TFunction, item: NotificationItem): string =>
  item.kind === 'notice' ? noticeText(t, item.notice) : alertText(t, item.alert);
