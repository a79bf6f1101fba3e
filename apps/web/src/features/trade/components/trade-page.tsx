import { RiskWarningBanner } from '../../../components/risk-warning-banner';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ConnectionIndicator } from '../../../components/ui/connection-indicator';
import { Sheet } from '../../../components/ui/dialog';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorState } from '../../../components/ui/error-state';
import { PageSpinner } from '../../../components/ui/spinner';
import { useDocumentTitle } from '../../../lib/document-title';
import { useLiveQuotesFeed } from '../../../lib/live-quotes';
import { usePageActive } from '../../../lib/page-activity';
import { useTradeList, type TradeSymbol } from '../../../api/get-trade-list';
import { KlineChart } from './kline-chart';
import { OrderForm } from './order-form';
import { PeriodBar, usePeriod } from './period-bar';
import { QuoteHeader } from './quote-header';
import { SymbolList } from './symbol-list';
import { useSelectedSymbol, useSymbolQuote } from './use-trade-data';

/** The symbols, the chosen one and a way to choose another (?symbol=CODE). */
export function useTradeScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const symbols = useTradeList();
  const symbol = useSelectedSymbol(symbols.data);
  useLiveQuotesFeed(usePageActive());
  useDocumentTitle(symbol ? `${symbol.ShowCode} · ${t('pages.trade')}` : t('pages.trade'));
  const choose = (code: string) => navigate(`/trade?symbol=${encodeURIComponent(code)}`, { replace: true });
  let fallback = null;
  if (symbols.isPending) fallback = <PageSpinner />;
  else if (symbols.isError) fallback = <ErrorState onRetry={() => void symbols.refetch()} />;
  else if (!symbol) fallback = <EmptyState />;
  return { symbols: symbols.data ?? [], symbol, choose, fallback };
}

/** The symbol's open positions, drawn by the orders feature (composed by the route). */
export type SymbolPositionsSlot = (symbol: TradeSymbol) => ReactNode;

function MobileTrade({
  symbol,
  symbols,
  choose,
  positions,
}: {
  symbol: TradeSymbol;
  symbols: TradeSymbol[];
  choose: (code: string) => void;
  positions?: SymbolPositionsSlot;
}) {
  const { t } = useTranslation();
  const quote = useSymbolQuote(symbol);
  const [period, setPeriod] = usePeriod();
  const [picking, setPicking] = useState(false);
  return (
    <>
      <header className="sticky top-[var(--header-offset,0px)] z-20 flex h-12 items-center border-b border-border bg-bg/95 ps-4 pe-2 backdrop-blur">
        <h1 className="flex-1 text-base font-semibold">{t('pages.trade')}</h1>
        <ConnectionIndicator />
      </header>
      <RiskWarningBanner className="mx-4 mt-3" />
      <QuoteHeader symbol={symbol} quote={quote} onPick={() => setPicking(true)} />
      <PeriodBar period={period} onChange={setPeriod} />
      <KlineChart symbol={symbol} period={period} className="h-64" />
      {positions?.(symbol)}
      <OrderForm symbol={symbol} quote={quote} symbols={symbols} sticky />
      {/* Room for the sticky Buy/Sell bar, so the end of the form is not hidden under it. */}
      <div className="h-16" aria-hidden="true" />
      <Sheet open={picking} onClose={() => setPicking(false)} title={t('trade.symbols')}>
        <div className="-mx-4 -my-4 flex h-[60dvh] flex-col">
          <SymbolList
            symbols={symbols}
            selected={symbol.Code}
            onSelect={(code) => {
              setPicking(false);
              choose(code);
            }}
          />
        </div>
      </Sheet>
    </>
  );
}

/** /trade on a phone: picker drawer, live price, period bar, chart, the symbol's positions, order form, sticky Buy/Sell bar. */
export function TradePage({ positions }: { positions?: SymbolPositionsSlot }) {
  const { symbols, symbol, choose, fallback } = useTradeScreen();
  if (!symbol) return fallback;
  return <MobileTrade symbol={symbol} symbols={symbols} choose={choose} positions={positions} />;
}
