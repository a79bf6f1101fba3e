import type {
  IChartApiBase,
  IPrimitivePaneRenderer,
  IPrimitivePaneView,
  ISeriesApi,
  ISeriesPrimitive,
  Logical,
  PrimitiveHoveredItem,
  SeriesAttachedParameter,
  SeriesType,
  Time,
  UTCTimestamp,
} from 'lightweight-charts';

/** A point the trader picked: the bar's time (UTC seconds) and a price. */
export interface TrendPoint {
  time: number;
  price: number;
}

export interface TrendLine {
  from: TrendPoint;
  to: TrendPoint;
}

type DrawTarget = Parameters<IPrimitivePaneRenderer['draw']>[0];
/** A segment in the pane's CSS pixels. */
export interface Segment {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  selected: boolean;
  draft: boolean;
}

const HIT_DISTANCE = 6;
export const trendLineId = (index: number) => `trend:${index}`;
export const trendLineIndex = (id: unknown): number | null =>
  typeof id === 'string' && id.startsWith('trend:') ? Number(id.slice('trend:'.length)) : null;

/** Distance from a pixel to a segment (for picking a line with the pointer). */
function distanceToSegment(x: number, y: number, s: Segment): number {
  const dx = s.x2 - s.x1;
  const dy = s.y2 - s.y1;
  const length = dx * dx + dy * dy;
  const along = length === 0 ? 0 : Math.max(0, Math.min(1, ((x - s.x1) * dx + (y - s.y1) * dy) / length));
  return Math.hypot(x - (s.x1 + along * dx), y - (s.y1 + along * dy));
}

class TrendLinesRenderer implements IPrimitivePaneRenderer {
  constructor(
    private readonly segments: readonly Segment[],
    private readonly colour: string,
    private readonly onDrawn: (segments: readonly Segment[]) => void,
  ) {}

  draw(target: DrawTarget) {
    target.useBitmapCoordinateSpace(({ context, horizontalPixelRatio: h, verticalPixelRatio: v }) => {
      context.save();
      context.strokeStyle = this.colour;
      context.fillStyle = this.colour;
      context.lineCap = 'round';
      for (const s of this.segments) {
        context.lineWidth = (s.selected ? 3 : 2) * h;
        context.setLineDash(s.draft ? [4 * h, 4 * h] : []);
        context.beginPath();
        context.moveTo(s.x1 * h, s.y1 * v);
        context.lineTo(s.x2 * h, s.y2 * v);
        context.stroke();
        // A selected line (and one being drawn) shows its two ends.
        if (s.selected || s.draft)
          for (const [x, y] of [
            [s.x1, s.y1],
            [s.x2, s.y2],
          ] as const) {
            context.beginPath();
            context.arc(x * h, y * v, 4 * h, 0, 2 * Math.PI);
            context.fill();
          }
      }
      context.restore();
    });
    this.onDrawn(this.segments);
  }
}

class TrendLinesView implements IPrimitivePaneView {
  constructor(private readonly source: TrendLinesPrimitive) {}

  zOrder() {
    return 'top' as const;
  }

  renderer() {
    return new TrendLinesRenderer(this.source.segments, this.source.colour, (drawn) => (this.source.drawn = drawn));
  }
}

/**
 * The trader's trend lines on the price series: a straight segment between two picked points (time
 * and price each), drawn on the chart's canvas and moving with its scroll and zoom. A line can be
 * picked with the pointer (hit test), and the one being drawn follows the pointer until its end is picked.
 */
export class TrendLinesPrimitive implements ISeriesPrimitive<Time> {
  private chart: IChartApiBase<Time> | null = null;
  private series: ISeriesApi<SeriesType> | null = null;
  private requestUpdate: (() => void) | null = null;
  private lines: readonly TrendLine[] = [];
  private selected: number | null = null;
  private draft: TrendLine | null = null;
  private readonly views = [new TrendLinesView(this)];
  segments: readonly Segment[] = [];
  /** The segments of the last draw (read by browser tests). */
  drawn: readonly Segment[] = [];

  constructor(readonly colour: string) {}

  attached({ chart, series, requestUpdate }: SeriesAttachedParameter<Time>) {
    this.chart = chart;
    this.series = series;
    this.requestUpdate = requestUpdate;
  }

  detached() {
    this.chart = null;
    this.series = null;
    this.requestUpdate = null;
  }

  set(lines: readonly TrendLine[], selected: number | null, draft: TrendLine | null) {
    this.lines = lines;
    this.selected = selected;
    this.draft = draft;
    this.updateAllViews();
    this.requestUpdate?.();
  }

  paneViews() {
    return this.views;
  }

  updateAllViews() {
    const segments: Segment[] = [];
    const add = (line: TrendLine, selected: boolean, draft: boolean) => {
      const a = this.pixel(line.from);
      const b = this.pixel(line.to);
      if (a && b) segments.push({ x1: a.x, y1: a.y, x2: b.x, y2: b.y, selected, draft });
    };
    this.lines.forEach((line, index) => add(line, index === this.selected, false));
    if (this.draft) add(this.draft, false, true);
    this.segments = segments;
  }

  hitTest(x: number, y: number): PrimitiveHoveredItem | null {
    let best: { index: number; distance: number } | null = null;
    this.lines.forEach((line, index) => {
      const a = this.pixel(line.from);
      const b = this.pixel(line.to);
      if (!a || !b) return;
      const distance = distanceToSegment(x, y, { x1: a.x, y1: a.y, x2: b.x, y2: b.y, selected: false, draft: false });
      if (distance <= HIT_DISTANCE && (!best || distance < best.distance)) best = { index, distance };
    });
    if (!best) return null;
    const { index, distance } = best;
    return { externalId: trendLineId(index), distance, zOrder: 'top', cursorStyle: 'pointer' };
  }

  /** A point's place on the pane; a time between bars (another period) falls on the nearest bar. */
  private pixel(point: TrendPoint): { x: number; y: number } | null {
    if (!this.chart || !this.series) return null;
    const scale = this.chart.timeScale();
    const time = point.time as UTCTimestamp;
    let x = scale.timeToCoordinate(time);
    if (x === null) {
      const index = scale.timeToIndex(time, true);
      x = index === null ? null : scale.logicalToCoordinate(index as unknown as Logical);
    }
    const y = this.series.priceToCoordinate(point.price);
    return x === null || y === null ? null : { x, y };
  }
}
