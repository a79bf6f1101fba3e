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
import type { TradeSymbol } from '../../../api/get-trade-list';

function Workspace({ symbol, symbols, choose, positions }: { symbol: TradeSymbol; symbols: TradeSymbol[]; choose: (code: string) => void; positions?: ReactNode }) {
  const { t } = useTranslation();
  const quote = useSymbolQuote(symbol);
  const [period, setPeriod] = usePeriod();
  const [listWidth, setListWidth] = useState(260);
  const [formWidth, setFormWidth] = useState(300);
  const [positionsHeight, setPositionsHeight] = useState(220);
  return (
    <div className="flex h-[calc(100dvh-7.5rem)] min-h-[640px] flex-col">
      <div className="flex min-h-0 flex-1">
        <aside aria-label={t('trade.symbols')} style={{ width: listWidth }} className="flex min-h-0 shrink-0 flex-col border-e border-border">
          <SymbolList symbols={symbols} selected={symbol.Code} onSelect={choose} />
        </aside>
        <ResizeHandle orientation="vertical" size={listWidth} min={200} max={420} onResize={setListWidth} />
        <section aria-label={t('trade.chart_label')} className="flex min-w-0 flex-1 flex-col">
          <QuoteHeader symbol={symbol} quote={quote} />
          <PeriodBar period={period} onChange={setPeriod} />
          <KlineChart symbol={symbol} period={period} className="min-h-0 flex-1" />
        </section>
        <ResizeHandle orientation="vertical" size={formWidth} min={260} max={420} sign={-1} onResize={setFormWidth} />
        <aside style={{ width: formWidth }} className="shrink-0 overflow-y-auto border-s border-border">
          <OrderForm symbol={symbol} quote={quote} symbols={symbols} shortcuts />
        </aside>
      </div>
      {positions && (
        <>
          <ResizeHandle orientation="horizontal" size={positionsHeight} min={120} max={520} sign={-1} onResize={setPositionsHeight} />
          <section aria-label={t('trade.positions')} style={{ height: positionsHeight }} className="shrink-0 overflow-y-auto">
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
