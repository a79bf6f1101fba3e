import { OrderStatus } from '@tp/contract/constants';
import type { Order } from '@tp/contract/schemas/trading';
import { type RefObject, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOpenOrders } from '../../../api/open-orders';
import { StopsSheet } from '../../../components/stops-sheet';
import { formatMoney, formatNumber, isolateLtr } from '../../../lib/format';
import { useSessionStore } from '../../../lib/session-store';
import { useSocketTopic } from '../../../lib/use-socket';
import type { ChartApi } from './chart-series';
import { isBuy, type LineKind, type OrderLine } from './order-lines';
import { useLineDrag } from './use-line-drag';

const DESKTOP = '(min-width: 1024px)';

/**
 * The trader's open positions and pending orders of this symbol as lines on the chart (entry with
 * its floating profit, TP, SL, pending price). Dropping a dragged TP or SL opens the stops form
 * with the new level, so it is checked and confirmed there before it is saved.
 */
export function ChartOrderLines({
  api,
  container,
  symbolId,
  precision,
  mainVersion,
}: {
  api: RefObject<ChartApi | null>;
  container: RefObject<HTMLDivElement | null>;
  symbolId: number;
  precision: number;
  mainVersion: number;
}) {
  const { t } = useTranslation();
  const loggedIn = useSessionStore((s) => Boolean(s.token));
  const positions = useOpenOrders(1, loggedIn);
  const pending = useOpenOrders(0, loggedIn);
  const [pushed, setPushed] = useState<Order[] | null>(null);
  const [proposal, setProposal] = useState<{ order: Order; takeProfit?: string; stopLoss?: string } | null>(null);
  const [redraw, setRedraw] = useState(0);

  // Positions with their current price and profit arrive with every FOREX_TRADE push.
  useSocketTopic('FOREX_TRADE', (message) => {
    setPushed(message.TransOrder);
  });
  useEffect(() => setPushed(null), [positions.dataUpdatedAt]);

  const orders = useMemo(
    () => [...(pushed ?? positions.data?.data ?? []), ...(pending.data?.data ?? [])].filter((o) => o.ForexId === symbolId),
    [pushed, positions.data, pending.data, symbolId],
  );

  useEffect(() => {
    const chart = api.current;
    if (!chart) return;
    const side = (order: Order) => t(isBuy(order) ? 'trade.buy' : 'trade.sell');
    const title = (order: Order, kind: LineKind) => {
      if (kind === 'tp') return t('trade.chart.tp');
      if (kind === 'sl') return t('trade.chart.sl');
      if (kind === 'pending') return t('trade.chart.pending_line', { side: side(order), lots: order.Quantity });
      return t('trade.chart.entry_line', {
        side: side(order),
        lots: order.Quantity,
        profit: isolateLtr(formatMoney(order.FactProfits, { signed: true })),
      });
    };
    const colour = (order: Order, kind: LineKind) =>
      kind === 'tp' ? chart.up : kind === 'sl' ? chart.down : kind === 'pending' ? chart.accent : isBuy(order) ? chart.up : chart.down;
    chart.lines.draw(chart.main, orders, (order, kind) => ({ title: title(order, kind), color: colour(order, kind) }));
  }, [api, orders, mainVersion, redraw, t]);

  useLineDrag(
    container,
    () => (api.current ? { chart: api.current.chart, lines: api.current.lines } : null),
    (line: OrderLine, price: number) => {
      const level = price.toFixed(precision);
      setProposal(line.kind === 'tp' ? { order: line.order, takeProfit: level } : { order: line.order, stopLoss: level });
    },
  );

  return (
    <>
      <ul className="sr-only" aria-label={t('trade.chart.order_lines')}>
        {orders.map((order) => (
          <li key={order.Id} data-testid="chart-order-line">
            {order.Status === OrderStatus.PENDING
              ? t('trade.chart.pending_line', { side: t(isBuy(order) ? 'trade.buy' : 'trade.sell'), lots: order.Quantity })
              : t('trade.chart.entry_line', {
                  side: t(isBuy(order) ? 'trade.buy' : 'trade.sell'),
                  lots: order.Quantity,
                  profit: isolateLtr(formatMoney(order.FactProfits, { signed: true })),
                })}
            {Number(order.TargetProfitPrice) ? ` · ${t('trade.chart.tp')} ${formatNumber(order.TargetProfitPrice, precision)}` : ''}
            {Number(order.TargetLossPrice) ? ` · ${t('trade.chart.sl')} ${formatNumber(order.TargetLossPrice, precision)}` : ''}
          </li>
        ))}
      </ul>
      {proposal && (
        <StopsSheet
          order={proposal.order}
          proposed={{ takeProfit: proposal.takeProfit, stopLoss: proposal.stopLoss }}
          centred={window.matchMedia(DESKTOP).matches}
          onClose={() => {
            setProposal(null);
            // A cancelled drag puts the line back where the order has it.
            setRedraw((n) => n + 1);
          }}
        />
      )}
    </>
  );
}
