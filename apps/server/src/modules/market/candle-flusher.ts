import type { Logger } from 'pino';
import type { BackgroundTask } from '../../context.ts';
import type { Db } from '../../platform/db/client.ts';
import type { CandleAggregator } from './candle-aggregator.ts';
import { upsertBars } from './repository.ts';

/** Writes changed bars to the database in batches on a timer; a final flush on stop. */
export class CandleFlusher implements BackgroundTask {
  readonly name = 'candle-flusher';
  /** Only the leader writes candles; followers keep theirs in memory from the leader's ticks. */
  readonly leaderOnly = true;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    private readonly candles: CandleAggregator,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.flush(), this.intervalMs);
  }

  /** Writes what changed since the last flush; overlapping calls wait for the one running. */
  async flush(): Promise<void> {
    if (this.running) return this.running;
    const bars = this.candles.takeDirty();
    if (!bars.length) return;
    this.running = upsertBars(this.db, bars)
      .catch((err: unknown) => {
        this.log.error({ err, bars: bars.length }, 'candle flush failed');
        this.candles.giveBack(bars);
      })
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
    await this.flush();
  }
}
