import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAddAlert } from '../../../api/alerts';
import type { TradeSymbol } from '../../../api/get-trade-list';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast-store';
import { ApiError } from '../../../lib/api-client';
import { formatNumber } from '../../../lib/format';
import { currentPath, loginPath, navigateTo } from '../../../lib/navigation';
import { useSessionStore } from '../../../lib/session-store';
import { isDecimal } from '../../../lib/stop-levels';
import type { SymbolQuote } from './use-trade-data';

const inputClass =
  'h-10 w-full min-w-0 rounded-lg border border-border bg-surface-2 px-3 text-sm tabular-nums outline-none focus:border-accent';

function AlertForm({
  symbol,
  quote,
  onClose,
  centred,
}: {
  symbol: TradeSymbol;
  quote: SymbolQuote;
  onClose: () => void;
  centred: boolean;
}) {
  const { t } = useTranslation();
  const add = useAddAlert();
  const precision = symbol.PricePrecision;
  const [side, setSide] = useState<'bid' | 'ask'>('bid');
  const [price, setPrice] = useState(formatNumber(quote.bid, precision, { grouping: false }));
  const [email, setEmail] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const current = side === 'bid' ? quote.bid : quote.ask;

  function save() {
    if (!isDecimal(price) || Number(price) <= 0) {
      setError(t('trade.errors.alert_price'));
      return;
    }
    setError(null);
    add.mutate(
      { forex_id: symbol.Id, price, side, email: email ? 1 : 0 },
      {
        onSuccess: () => {
          toast(
            t('trade.alert_saved', { symbol: symbol.ShowCode, side: t(`trade.alert_side_${side}`), price: formatNumber(price, precision) }),
            'success',
          );
          onClose();
        },
        // The server's translated refusal (the limit, a bad price) is toasted; it also stays in the form.
        onError: (err) => setError(err instanceof ApiError && err.kind === 'business' ? err.message : t('trade.errors.alert_failed')),
      },
    );
  }

  return (
    <Dialog
      open
      onClose={onClose}
      variant={centred ? 'center' : 'sheet'}
      title={t('trade.alert_title', { symbol: symbol.ShowCode })}
      footer={
        <>
          <Button variant="secondary" block onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button block disabled={add.isPending} onClick={save}>
            {add.isPending && <Spinner className="size-4" />}
            {t('trade.alert_save')}
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-3">
        <div role="radiogroup" aria-label={t('trade.alert_side')} className="grid grid-cols-2 gap-1 rounded-lg bg-surface-2 p-1">
          {(['bid', 'ask'] as const).map((value) => (
            <button
              key={value}
              type="button"
              role="radio"
              aria-checked={side === value}
              onClick={() => {
                setSide(value);
                setPrice(formatNumber(value === 'bid' ? quote.bid : quote.ask, precision, { grouping: false }));
              }}
              className={`rounded-md py-1.5 text-sm ${side === value ? 'bg-bg text-text' : 'text-muted'}`}
            >
              {t(`trade.alert_side_${value}`)}
            </button>
          ))}
        </div>
        <label className="flex flex-col gap-1 text-xs text-muted">
          {t('trade.alert_price')}
          <input
            type="text"
            inputMode="decimal"
            value={price}
            onChange={(e) => setPrice(e.target.value.replace(',', '.'))}
            aria-invalid={Boolean(error)}
            className={inputClass}
          />
        </label>
        <p className="text-xs text-muted">
          {t('trade.alert_current', { side: t(`trade.alert_side_${side}`) })}{' '}
          <span className="tabular-nums text-text">{formatNumber(current, precision)}</span>
        </p>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={email}
            onChange={(e) => setEmail(e.target.checked)}
            className="size-4 accent-[var(--color-accent)]"
          />
          {t('trade.alert_email')}
        </label>
        {error && (
          <p role="alert" className="text-xs text-down">
            {error}
          </p>
        )}
      </div>
    </Dialog>
  );
}

/** A bell on the trade screen: "tell me when the bid (or ask) reaches this price". */
export function AlertButton({ symbol, quote, centred = false }: { symbol: TradeSymbol; quote: SymbolQuote; centred?: boolean }) {
  const { t } = useTranslation();
  const loggedIn = useSessionStore((state) => Boolean(state.token));
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        aria-label={t('trade.alert_button')}
        title={t('trade.alert_button')}
        aria-haspopup="dialog"
        onClick={() => (loggedIn ? setOpen(true) : navigateTo(loginPath(currentPath())))}
        className="ms-auto flex items-center gap-1 rounded-lg px-2 py-1 text-xs text-muted hover:bg-surface-2 hover:text-text"
      >
        <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} aria-hidden="true" className="size-4">
          <path d="M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
          <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
        </svg>
        <span>{t('trade.alert_short')}</span>
      </button>
      {open && <AlertForm symbol={symbol} quote={quote} centred={centred} onClose={() => setOpen(false)} />}
    </>
  );
}
