import { ACCOUNT_NOTICE_KINDS, type Alert, type Notice } from '@tp/contract/schemas/trading';
import { localeOf, normalizeLang } from '@tp/contract/languages';
import { formatAmount, formatDecimal } from '@tp/contract/number-format';
import { pushEventOf, type PushEvent } from '@tp/contract/schemas/web-push';
import { t } from '../../http/i18n.ts';

/** What the service worker shows: the notification's title and text, its tag (one per order) and the page a click opens. */
export interface PushMessage {
  event: PushEvent;
  title: string;
  body: string;
  tag: string;
  url: string;
}

const CLOSES: ReadonlySet<string> = new Set(['take_profit', 'stop_loss', 'trailing_stop', 'stop_out', 'staff_close', 'copy_close']);
const ACCOUNT_KINDS: ReadonlySet<string> = new Set(ACCOUNT_NOTICE_KINDS);

/** Numbers keep their sign on the left inside a right-to-left sentence (Unicode isolates, Arabic only). */
const isolate = (lang: string, text: string) => (lang === 'ar' ? `\u2066${text}\u2069` : text);

const localeFor = (lang: string) => localeOf(normalizeLang(lang));
/** The close's result in USD to the cent, signed and grouped as the app writes money: "+1,212.50", "-3.10". */
const signed = (lang: string, value: string) => formatAmount(value, localeFor(lang), { signed: true });
/** A price as sent (its symbol's precision), grouped as the app writes prices: "95,600.00". */
const price = (lang: string, value: string) => formatDecimal(value, value.split('.')[1]?.length ?? 0, localeFor(lang));

/** The orders screen where the order now is (history after a close, holding after a fill). */
function urlOf(notice: Notice): string {
  if (ACCOUNT_KINDS.has(notice.kind) || notice.kind === 'demo_reset') return '/mine/notifications';
  if (notice.kind === 'margin_call') return '/order?type=1';
  const tab = notice.kind === 'pending_filled' ? 1 : 3;
  return `/order?type=${tab}&id=${notice.order_id}`;
}

function noticeBody(lang: string, notice: Notice, kind: string): string {
  const n = (text: string) => isolate(lang, text);
  if (CLOSES.has(notice.kind))
    return t(lang, 'push.notice_close', {
      kind,
      symbol: notice.symbol,
      price: n(price(lang, notice.price)),
      result: n(signed(lang, notice.profit)),
    });
  if (notice.kind === 'margin_call')
    return t(lang, 'push.notice_margin_call', { level: n(formatDecimal(notice.price, 2, localeFor(lang))) });
  if (notice.kind === 'pending_filled' || notice.kind === 'pending_cancelled')
    return t(lang, 'push.notice_order', { kind, symbol: notice.symbol, price: n(price(lang, notice.price)) });
  const text = notice.amount ? n(`${formatAmount(notice.amount, localeFor(lang))} ${notice.currency ?? ''}`.trim()) : kind;
  return notice.reason ? t(lang, 'push.notice_with_reason', { text, reason: notice.reason }) : text;
}

/** A NOTICE as a push notification in the trader's language. */
export function noticeMessage(lang: string, notice: Notice): PushMessage {
  const title = t(lang, `push.kind_${notice.kind}`);
  const tag = notice.order_id ? `order-${notice.order_id}` : `${notice.kind}-${notice.time}`;
  return { event: pushEventOf(notice.kind), title, body: noticeBody(lang, notice, title), tag, url: urlOf(notice) };
}

/** A fired price alert as a push notification in the trader's language. */
export function alertMessage(lang: string, alert: Alert): PushMessage {
  return {
    event: 'price_alert',
    title: t(lang, 'push.alert_title', { symbol: alert.symbol }),
    body: t(lang, 'push.alert_body', {
      symbol: alert.symbol,
      side: t(lang, `push.side_${alert.side}`),
      price: isolate(lang, price(lang, alert.fired_price)),
      target: isolate(lang, price(lang, alert.price)),
    }),
    tag: `alert-${alert.id}`,
    url: '/order?type=alerts',
  };
}
