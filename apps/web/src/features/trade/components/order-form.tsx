import { OrderType } from '@tp/contract/constants';
import { dec } from '@tp/contract/decimal';
import { useEffect, useEffectEvent, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../components/ui/toast-store';
import { formatMoney, formatNumber } from '../../../lib/format';
import { useLiveQuotesStore } from '../../../lib/live-quotes';
import { currentPath, loginPath, navigateTo } from '../../../lib/navigation';
import { useSessionStore } from '../../../lib/session-store';
import { useTradeFeeType } from './use-trade-fee-type';
import type { TradeSymbol } from '../../../api/get-trade-list';
import { estimateOrder, lotsProblem, quoteToUsdOf, stepLots, type Estimate } from './order-math';
import { OrderConfirmSheet, type OrderDraft } from './order-confirm-sheet';
import { useOneClick } from './one-click';
import { useAvailablePrepayment, type SymbolQuote } from './use-trade-data';
import { StopLevelInputs } from '../../../components/ui/stop-level-input';
import { isDecimal, stopLevelErrors, useStopLevels } from '../../../lib/stop-levels';
import { PendingOptions } from './pending-options';
import { DEFAULT_PENDING, derivedPendingType, expireSeconds, pendingProblem, type PendingChoice } from './pending-types';
import { useSlippage } from './slippage';
import { SlippageField } from './slippage-field';

type Kind = 'market' | 'pending';
interface FormErrors {
  lots?: string;
  price?: string;
  pending?: string;
  tp?: string;
  sl?: string;
  deviation?: string;
}

const inputClass =
  'h-10 w-full min-w-0 rounded-lg border border-border bg-surface-2 px-3 text-sm tabular-nums outline-none focus:border-accent disabled:opacity-50';

function Row({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="flex justify-between gap-2 text-xs">
      <dt className="text-muted">{label}</dt>
      <dd className="tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/**
 * The order form: market or pending, leverage, lots stepper, take-profit and stop-loss behind tick
 * boxes, estimates from the contract formulas, sell and buy buttons with their prices.
 */
export function OrderForm({
  symbol,
  quote,
  symbols,
  shortcuts = false,
  sticky = false,
}: {
  symbol: TradeSymbol;
  quote: SymbolQuote;
  symbols: TradeSymbol[];
  shortcuts?: boolean;
  /** Phone: Buy and Sell with their prices stay in a bar at the bottom of the screen. */
  sticky?: boolean;
}) {
  const { t } = useTranslation();
  // Buy and Sell are named by their visible word (WCAG 2.5.3); the ticking price is their description, read on focus, never on a tick.
  const priceIds = useId();
  const loggedIn = useSessionStore((state) => Boolean(state.token));
  const tradeFeeType = useTradeFeeType();
  const available = useAvailablePrepayment();
  const leverages = symbol.HasForexMultiple;
  const [kind, setKind] = useState<Kind>('market');
  const [price, setPrice] = useState('');
  const [leverage, setLeverage] = useState<number>(leverages[0]?.Value ?? 0);
  const [lots, setLots] = useState(symbol.ForexMinCont);
  const stops = useStopLevels();
  const slippage = useSlippage(symbol);
  const [errors, setErrors] = useState<FormErrors>({});
  const [draft, setDraft] = useState<OrderDraft | null>(null);
  const [pending, setPending] = useState<PendingChoice>(DEFAULT_PENDING);
  const oneClick = useOneClick();

  // A new symbol starts from its own minimum, leverage and an empty price.
  const [formSymbol, setFormSymbol] = useState(symbol.Id);
  if (formSymbol !== symbol.Id) {
    setFormSymbol(symbol.Id);
    setLots(symbol.ForexMinCont);
    setLeverage(leverages[0]?.Value ?? 0);
    setPrice('');
    stops.reset();
    setErrors({});
  }

  // Only the conversion rate is read from the quotes, so other symbols' ticks do not re-render the form.
  const quoteToUsdText = useLiveQuotesStore((state) =>
    quoteToUsdOf(
      symbol.Code,
      (code) => state.quotes[code]?.close || symbols.find((s) => s.Code === code)?.ForexQuotations.Close,
    ).toString(),
  );
  const quoteToUsd = useMemo(() => dec(quoteToUsdText), [quoteToUsdText]);
  const pricePrecision = symbol.PricePrecision;
  const closed = !quote.open_market;
  const noLeverage = leverages.length === 0;
  const estimatePrice = kind === 'pending' ? price : quote.last;
  const estimate: Estimate | null = estimateOrder(symbol, tradeFeeType, lots, estimatePrice, leverage, quoteToUsd);
  const atMinimum = !isDecimal(lots) || Number(lots) <= Number(symbol.ForexMinCont);

  function validate(orderType: number): FormErrors {
    const found: FormErrors = {};
    const problem = lotsProblem(lots, symbol);
    if (problem === 'required') found.lots = t('trade.errors.lots_required');
    else if (problem === 'min') found.lots = t('trade.errors.lots_min', { min: symbol.ForexMinCont });
    else if (problem === 'max') found.lots = t('trade.errors.lots_max', { max: symbol.ForexMaxCont });
    else if (problem === 'step') found.lots = t('trade.errors.lots_step', { step: symbol.Pip });
    if (kind === 'pending' && (!isDecimal(price) || Number(price) <= 0)) found.price = t('trade.errors.price_required');
    const pendingError = kind === 'pending' ? pendingProblem(pending, orderType, price, quote) : null;
    if (pendingError) found.pending = t(`trade.errors.${pendingError}`);
    if (kind === 'market' && slippage.points === null) found.deviation = t('trade.errors.slippage_invalid');
    // A position closes at the bid (buy) or ask (sell); a pending order at its target.
    const closeAt = kind === 'pending' ? price : orderType === OrderType.BUY ? quote.bid : quote.ask;
    return { ...found, ...stopLevelErrors(stops, orderType, closeAt, pricePrecision, t) };
  }

  function requestOrder(orderType: number) {
    if (!loggedIn) {
      navigateTo(loginPath(currentPath()));
      return;
    }
    if (noLeverage) {
      toast(t('messages.leverage_not_configured'), 'error');
      return;
    }
    if (closed || quote.stale) return;
    const found = validate(orderType);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const openAt = kind === 'pending' ? price : orderType === OrderType.BUY ? quote.ask : quote.bid;
    const next: OrderDraft = {
      symbol,
      orderType,
      pending: kind === 'pending',
      price: openAt,
      lots,
      leverage,
      takeProfit: stops.takeProfit,
      stopLoss: stops.stopLoss,
      estimate: estimateOrder(symbol, tradeFeeType, lots, openAt, leverage, quoteToUsd),
      ...(kind === 'pending' && {
        pendingType: pending.type === 'auto' ? undefined : pending.type,
        derivedType: derivedPendingType(orderType, price, quote),
        expireType: pending.expireType,
        expireTime: pending.expireType === 2 ? (expireSeconds(pending.expireAt) ?? undefined) : undefined,
      }),
      deviation: kind === 'market' ? slippage.points : null,
    };
    // One-click: a market order goes at once; a pending order still shows its confirmation.
    if (oneClick.enabled && !next.pending) oneClick.place(next);
    else setDraft(next);
  }

  const onShortcut = useEffectEvent((event: KeyboardEvent) => {
    const target = event.target as HTMLElement | null;
    if (draft || event.ctrlKey || event.metaKey || event.altKey || target?.closest('input,textarea,select,[role=dialog]')) return;
    const key = event.key.toLowerCase();
    if (key === 'b') requestOrder(OrderType.BUY);
    else if (key === 's') requestOrder(OrderType.SELL);
  });
  useEffect(() => {
    if (!shortcuts) return;
    const listener = (event: KeyboardEvent) => onShortcut(event);
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, [shortcuts]);

  const lastPrice = formatNumber(quote.last, pricePrecision, { grouping: false });

  return (
    <section aria-label={t('trade.order_form')} className={shortcuts ? 'flex h-full min-h-0 flex-col' : 'flex flex-col gap-3 px-4 py-3'}>
      {/* The desktop terminal: the fields scroll above Sell and Buy, which stay below them, never over them. */}
      <div className={shortcuts ? 'flex min-h-0 flex-1 flex-col gap-3 overflow-y-auto px-4 py-3' : 'contents'}>
        <div role="group" aria-label={t('trade.order_kind')} className="grid grid-cols-2 gap-1 rounded-lg bg-surface-2 p-1">
          {(['market', 'pending'] as const).map((value) => (
            <button
              key={value}
              type="button"
              aria-pressed={kind === value}
              onClick={() => setKind(value)}
              className={`rounded-md py-1.5 text-sm ${kind === value ? 'bg-bg text-text' : 'text-muted'}`}
            >
              {t(`trade.${value}`)}
            </button>
          ))}
        </div>

        {kind === 'pending' && (
          <div className="flex flex-col gap-1">
            <label className="flex flex-col gap-1 text-xs text-muted">
              {t('trade.price')}
              <input
                type="number"
                inputMode="decimal"
                min={0}
                step="any"
                value={price}
                onChange={(e) => setPrice(e.target.value)}
                aria-invalid={Boolean(errors.price)}
                placeholder={formatNumber(quote.last, pricePrecision, { grouping: false })}
                className={inputClass}
              />
            </label>
            {errors.price && <p className="text-xs text-down">{errors.price}</p>}
            <PendingOptions choice={pending} onChange={setPending} price={price} quote={quote} />
            {errors.pending && <p className="text-xs text-down">{errors.pending}</p>}
          </div>
        )}

        {noLeverage ? (
          <p role="alert" className="rounded-lg bg-down/10 px-3 py-2 text-sm text-down">
            {t('messages.leverage_not_configured')}
          </p>
        ) : (
          <label className="flex items-center justify-between gap-3 text-sm">
            <span className="text-muted">{t('trade.leverage')}</span>
            <select
              value={leverage}
              onChange={(e) => setLeverage(Number(e.target.value))}
              className="h-9 rounded-lg border border-border bg-surface-2 px-2 text-sm"
            >
              {leverages.map((item) => (
                <option key={item.Id} value={item.Value}>
                  {`x${item.Value}`}
                </option>
              ))}
            </select>
          </label>
        )}

        <div className="flex flex-col gap-1">
          <div className="flex items-center gap-2">
            <span className="w-16 shrink-0 text-sm text-muted">{t('trade.lots')}</span>
            <button
              type="button"
              aria-label={t('trade.decrease_lots')}
              disabled={atMinimum}
              onClick={() => setLots(stepLots(lots, symbol, -1))}
              className="size-10 shrink-0 rounded-lg bg-surface-2 text-lg disabled:opacity-40"
            >
              −
            </button>
            <input
              type="text"
              inputMode="decimal"
              value={lots}
              onChange={(e) => setLots(e.target.value.replace(',', '.'))}
              aria-label={t('trade.lots')}
              aria-invalid={Boolean(errors.lots)}
              className={`${inputClass} text-center`}
            />
            <button
              type="button"
              aria-label={t('trade.increase_lots')}
              onClick={() => setLots(stepLots(lots, symbol, 1))}
              className="size-10 shrink-0 rounded-lg bg-surface-2 text-lg"
            >
              +
            </button>
          </div>
          {errors.lots && <p className="text-xs text-down">{errors.lots}</p>}
        </div>

        <StopLevelInputs levels={stops} errors={errors} placeholder={lastPrice} />
        {kind === 'market' && loggedIn && <SlippageField slippage={slippage} precision={pricePrecision} error={errors.deviation} />}

        <dl className="flex flex-col gap-1.5 rounded-lg bg-surface px-3 py-2">
          <Row label={t('trade.unit_per_lot')} value={formatNumber(symbol.ForexContNum, 0)} />
          <Row
            label={t('trade.estimated_margin')}
            value={estimate ? formatMoney(estimate.margin.toString()) : '--'}
            testId="estimated-margin"
          />
          <Row label={t('trade.estimated_fee')} value={estimate ? formatMoney(estimate.fee.toString()) : '--'} testId="estimated-fee" />
          <Row label={t('trade.available_prepayment')} value={loggedIn ? formatMoney(available) : '--'} testId="available-prepayment" />
        </dl>

        {quote.stale ? (
          <p role="status" className="text-center text-xs text-down" data-testid="stale-reason">
            {t(`trade.stale_${quote.stale}`)}
          </p>
        ) : (
          closed && (
            <p role="status" className="text-center text-xs text-muted">
              {quote.halted ? t('trade.symbol_halted_hint') : t('trade.market_closed_hint')}
            </p>
          )
        )}
        {loggedIn && oneClick.control}
      </div>
      <div className={shortcuts ? 'flex shrink-0 flex-col gap-2 border-t border-border bg-bg px-4 py-2' : 'contents'}>
        <div
          className={`grid grid-cols-2 gap-3 ${
            sticky
              ? 'fixed inset-x-0 bottom-[calc(3.5rem+env(safe-area-inset-bottom))] z-30 mx-auto max-w-[480px] border-t border-border bg-bg/95 px-4 py-2 backdrop-blur'
              : ''
          }`}
          data-testid={sticky ? 'trade-bar' : undefined}
        >
          {([OrderType.SELL, OrderType.BUY] as const).map((side) => {
            const sell = side === OrderType.SELL;
            const name = sell ? 'sell' : 'buy';
            return (
              <button
                key={name}
                type="button"
                aria-describedby={`${priceIds}${name}`}
                disabled={closed || noLeverage || quote.stale !== null}
                onClick={() => requestOrder(side)}
                className={`flex flex-col items-center rounded-lg ${sell ? 'bg-down' : 'bg-up'} py-2 text-bg disabled:cursor-not-allowed disabled:opacity-40`}
              >
                <span className="text-sm font-semibold">{t(`trade.${name}`)}</span>
                <span
                  className={`text-xs tabular-nums ${quote.stale ? 'line-through' : ''}`}
                  data-testid={`${name}-price`}
                  id={`${priceIds}${name}`}
                  aria-hidden="true"
                >
                  {formatNumber(sell ? quote.bid : quote.ask, pricePrecision)}
                </span>
              </button>
            );
          })}
        </div>
        {shortcuts && <p className="text-center text-[11px] text-muted">{t('trade.shortcuts')}</p>}
        {!loggedIn && <p className="text-center text-xs text-muted">{t('trade.login_to_trade')}</p>}
      </div>
      <OrderConfirmSheet draft={draft} onClose={() => setDraft(null)} centred={shortcuts} />
    </section>
  );
}
