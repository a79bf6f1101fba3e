import { useQueryClient } from '@tanstack/react-query';
import type { ServerMessageOf } from '@tp/contract/pushes';
import { identityCenter } from '@tp/contract/endpoints/identity';
import { NOTICE_KINDS } from '@tp/contract/schemas/trading';
import { useTranslation } from 'react-i18next';
import { refreshAccount } from '../../../api/refresh-account';
import { toast } from '../../../components/ui/toast-store';
import { queryKey } from '../../../lib/api-client';
import { useSessionStore } from '../../../lib/session-store';
import { useSocketTopic } from '../../../lib/use-socket';
import { notificationsQueryKey } from '../api/get-notices';
import { useDevicePushLanguage } from '../api/web-push';
import { alertText, noticeText, type NoticeFields } from './notice-text';
import { beep, soundEnabled } from './notice-settings';

/** A notice stays on screen long enough to read the price and the result. */
const NOTICE_TOAST_MS = 8_000;

const str = (value: unknown) => (value === undefined || value === null ? '' : String(value));

function noticeOfPush(message: ServerMessageOf<'NOTICE'>): NoticeFields | null {
  const kind = NOTICE_KINDS.find((k) => k === message.kind);
  if (!kind) return null;
  const notice: NoticeFields = { kind, symbol: str(message.symbol), price: str(message.price), profit: str(message.profit ?? '0') };
  if (message.amount) notice.amount = str(message.amount);
  if (message.currency) notice.currency = str(message.currency);
  if (message.reason) notice.reason = str(message.reason);
  return notice;
}

/**
 * Every close, fill, fired alert and account event (deposit, withdrawal, identity, support reply) of the logged-in trader becomes a toast (and a beep when the trader
 * turned sound on), wherever they are in the app; the notification list refetches.
 */
export function NoticeListener() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const loggedIn = useSessionStore((state) => Boolean(state.token));
  useDevicePushLanguage(loggedIn, i18n.language);

  const announce = (text: string, tone: 'info' | 'success' | 'error') => {
    toast(text, tone, NOTICE_TOAST_MS);
    if (soundEnabled()) beep();
    void queryClient.invalidateQueries({ queryKey: notificationsQueryKey });
  };

  useSocketTopic(loggedIn ? 'NOTICE' : null, (message) => {
    const notice = noticeOfPush(message);
    if (!notice) return;
    const profit = Number(notice.profit);
    const rejected = notice.kind.endsWith('_rejected');
    announce(noticeText(t, notice), profit < 0 || rejected ? 'error' : profit > 0 ? 'success' : 'info');
    // A deposit credited or a withdrawal refunded moves the balance too.
    refreshAccount(queryClient);
    // An identity review changes what the identity page and the withdrawal form show.
    if (notice.kind.startsWith('identity_')) void queryClient.invalidateQueries({ queryKey: queryKey(identityCenter) });
  });
  useSocketTopic(loggedIn ? 'ALERT' : null, (message) => {
    announce(alertText(t, { symbol: message.symbol, side: message.side, price: message.price, fired_price: message.fired_price }), 'info');
  });
  return null;
}
