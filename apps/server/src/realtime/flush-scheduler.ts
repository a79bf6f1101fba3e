/** The wait before a pass when the last pass was short: a quote reaches a quiet gateway's clients within a few ms. */
export const QUIET_DELAY_MS = 2;
/** Wall time one slice of a pass may take before it yields to the event loop. */
export const SLICE_BUDGET_MS = 4;
/** Clients flushed between two looks at the clock. */
const CLOCK_EVERY = 32;

/**
 * Runs flush passes over all clients at an adaptive cadence. A change asks for a pass; the pass
 * starts after QUIET_DELAY_MS, or after as long as the previous pass took (capped by `maxDelayMs`)
 * when passes are long, so the batches grow with the load and the flushing never takes more than
 * about half of the event loop. A pass runs in slices of SLICE_BUDGET_MS and yields between them,
 * so replies, user pushes and incoming ticks are never stuck behind a pass over every client.
 */
export class FlushScheduler<T> {
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private pending = false;
  private lastPassMs = 0;
  private lastPassEnd = 0;
  private stopped = false;

  constructor(
    private readonly clients: () => Iterable<T>,
    /** Flushes one client; `now` is the pass's start (Date.now()). */
    private readonly flushOne: (client: T, now: number) => void,
    private readonly maxDelayMs: number,
  ) {}

  /** Told of every finished pass: its wall time (slices and yields) and the clients it went over (benchmarks). */
  onPass: ((ms: number, clients: number) => void) | null = null;

  /** Something changed: a pass will come, at the cadence the load allows. */
  request(): void {
    this.pending = true;
    if (this.running || this.timer || this.stopped) return;
    this.timer = setTimeout(() => this.run(), this.delay());
  }

  /** The wait before the next pass: a few ms when quiet, as long as the last pass when busy. */
  delay(): number {
    const wanted = Math.min(this.maxDelayMs, Math.max(QUIET_DELAY_MS, this.lastPassMs));
    return Math.max(0, wanted - (performance.now() - this.lastPassEnd));
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private run(): void {
    this.timer = null;
    this.running = true;
    this.pending = false;
    const started = performance.now();
    const now = Date.now();
    const list = Array.from(this.clients());
    let i = 0;
    const slice = () => {
      const until = performance.now() + SLICE_BUDGET_MS;
      while (i < list.length) {
        this.flushOne(list[i++]!, now);
        if (i % CLOCK_EVERY === 0 && performance.now() >= until) break;
      }
      if (i < list.length && !this.stopped) {
        setImmediate(slice);
        return;
      }
      this.running = false;
      this.lastPassEnd = performance.now();
      this.lastPassMs = this.lastPassEnd - started;
      this.onPass?.(this.lastPassMs, list.length);
      if (this.pending) this.request();
    };
    slice();
  }
}
