import { RiskWarningBanner } from '../../../components/risk-warning-banner';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { OrderForm } from './order-form';
import { KlineChart } from './kline-chart';
import { PeriodBar, usePeriod } from './period-bar';
import { QuoteHeader } from './quote-header';
import { ResizeHandle } from './resize-handle';
import { SymbolList } from './symbol-list';
import { useTradeScreen } from './trade-page';
import { useSymbolQuote } from './use-trade-data';
import { fitLayout, panelBounds, useElementSize, useTerminalLayoutStore } from './terminal-layout';
import type { TradeSymbol } from '../../../api/get-trade-list';

function Workspace({
  symbol,
  symbols,
  choose,
  positions,
}: {
  symbol: TradeSymbol;
  symbols: TradeSymbol[];
  choose: (code: string) => void;
  positions?: ReactNode;
}) {
  const { t } = useTranslation();
  const quote = useSymbolQuote(symbol);
  const [period, setPeriod] = usePeriod();
  const stored = useTerminalLayoutStore();
  const [frame, setFrame] = useState<HTMLDivElement | null>(null);
  const measured = useElementSize(frame);
  const width = measured.width || window.innerWidth;
  const height = measured.height || window.innerHeight;
  // The remembered sizes, fitted to this window (the chart keeps its room); dragging stores new ones.
  const { listWidth, formWidth, positionsHeight } = fitLayout(stored, width, height);
  const bounds = panelBounds({ listWidth, formWidth, positionsHeight }, width, height);
  return (
    <div ref={setFrame} data-testid="trade-terminal" className="flex h-[calc(100dvh-var(--header-offset,0px)-1px)] min-h-[600px] flex-col">
      {/* The page's one top-level heading, for screen readers' heading navigation (the terminal shows the symbol in its quote header). */}
      <h1 className="sr-only">{`${symbol.ShowCode} · ${t('pages.trade')}`}</h1>
      <RiskWarningBanner className="mx-3 my-2" />
      <div className="flex min-h-0 flex-1">
        <aside
          aria-label={t('trade.symbols')}
          style={{ width: listWidth }}
          className="flex min-h-0 shrink-0 flex-col border-e border-border"
        >
          <SymbolList symbols={symbols} selected={symbol.Code} onSelect={choose} />
        </aside>
        <ResizeHandle
          orientation="vertical"
          size={listWidth}
          min={bounds.list.min}
          max={bounds.list.max}
          onResize={(next) => stored.set({ listWidth: next })}
        />
        <section aria-label={t('trade.chart_label')} className="flex min-w-0 flex-1 flex-col">
          <QuoteHeader symbol={symbol} quote={quote} />
          <PeriodBar period={period} onChange={setPeriod} />
          <KlineChart symbol={symbol} period={period} className="min-h-0 flex-1" />
        </section>
        <ResizeHandle
          orientation="vertical"
          size={formWidth}
          min={bounds.form.min}
          max={bounds.form.max}
          sign={-1}
          onResize={(next) => stored.set({ formWidth: next })}
        />
        <aside style={{ width: formWidth }} className="flex min-h-0 shrink-0 flex-col border-s border-border">
          <OrderForm symbol={symbol} quote={quote} symbols={symbols} shortcuts />
        </aside>
      </div>
      {positions && (
        <>
          <ResizeHandle
            orientation="horizontal"
            size={positionsHeight}
            min={bounds.positions.min}
            max={bounds.positions.max}
            sign={-1}
            onResize={(next) => stored.set({ positionsHeight: next })}
          />
          <section
            aria-label={t('trade.positions')}
            style={{ height: positionsHeight }}
            className="flex min-h-0 shrink-0 flex-col overflow-hidden"
          >
            {positions}
          </section>
        </>
      )}
    </div>
  );
}

/** /trade on a desktop: market list, chart, order form and the positions panel on one screen. */
export function TradeTerminal({ positions }: { positions?: ReactNode }) {
  const { symbols, symbol, choose, fallback } = useTradeScreen();
  if (!symbol) return fallback;
  return <Workspace symbol={symbol} symbols={symbols} choose={choose} positions={positions} />;
}
