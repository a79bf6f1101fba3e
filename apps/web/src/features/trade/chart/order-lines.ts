import { OrderStatus, OrderType } from '@tp/contract/constants';
import type { Order } from '@tp/contract/schemas/trading';
import type { IPriceLine, ISeriesApi, SeriesType } from 'lightweight-charts';

export type LineKind = 'entry' | 'tp' | 'sl' | 'pending';

export interface OrderLine {
  order: Order;
  kind: LineKind;
  line: IPriceLine;
}

export interface LineStyle {
  title: string;
  color: string;
}

const isSet = (price: string) => Boolean(price) && Number(price) !== 0;

/** The lines one order draws: a position its entry, a pending order its price; both their TP and SL. */
export function linesOf(order: Order): { kind: LineKind; price: string }[] {
  const out: { kind: LineKind; price: string }[] = [];
  if (order.Status === OrderStatus.PENDING) out.push({ kind: 'pending', price: order.OriginPrice });
  else out.push({ kind: 'entry', price: order.Price });
  if (isSet(order.TargetProfitPrice)) out.push({ kind: 'tp', price: order.TargetProfitPrice });
  if (isSet(order.TargetLossPrice)) out.push({ kind: 'sl', price: order.TargetLossPrice });
  return out;
}

export const isBuy = (order: Order) => order.OrderType === OrderType.BUY;

/** Pixels from a line within which a press picks it up. */
const GRAB_PX = 6;

/** The trader's orders as price lines on the main series; TP and SL lines can be picked up by their y. */
export class OrderLines {
  private lines: OrderLine[] = [];

  constructor(private series: ISeriesApi<SeriesType>) {}

  draw(series: ISeriesApi<SeriesType>, orders: Order[], style: (order: Order, kind: LineKind) => LineStyle): void {
    this.clear();
    this.series = series;
    for (const order of orders) {
      for (const { kind, price } of linesOf(order)) {
        const { title, color } = style(order, kind);
        const line = series.createPriceLine({
          // The chart draws with numbers; the price sent to the server is the text the trader confirms.
          price: Number(price),
          color,
          title,
          lineWidth: kind === 'entry' || kind === 'pending' ? 2 : 1,
          lineStyle: kind === 'tp' || kind === 'sl' ? 2 : 0,
          axisLabelVisible: true,
        });
        this.lines.push({ order, kind, line });
      }
    }
  }

  clear(): void {
    for (const { line } of this.lines) this.series.removePriceLine(line);
    this.lines = [];
  }

  /** The TP or SL line nearest to `y` (pixels from the top of the price pane), if close enough. */
  draggableAt(y: number): OrderLine | null {
    let best: OrderLine | null = null;
    let bestDistance = GRAB_PX + 1;
    for (const l of this.lines) {
      if (l.kind !== 'tp' && l.kind !== 'sl') continue;
      const at = this.series.priceToCoordinate(l.line.options().price);
      if (at === null) continue;
      const distance = Math.abs(at - y);
      if (distance < bestDistance) [best, bestDistance] = [l, distance];
    }
    return best;
  }

  priceAt(y: number): number | null {
    return this.series.coordinateToPrice(y);
  }

  /** Every drawn line. */
  all(): readonly OrderLine[] {
    return this.lines;
  }
}
