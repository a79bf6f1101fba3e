/** The wait before a pass: a quote reaches a quiet gateway's clients within a few ms. */
export const QUIET_DELAY_MS = 2;
/** Wall time one slice of a pass may take before it yields to the event loop. */
export const SLICE_BUDGET_MS = 4;
/**
 * The rest after a slice, as a share of the slice's time. bench:ws, 5,000 clients on 2 cores (their heartbeats
 * each on its own phase), one run each:
 * tick-to-client p99 106 ms with a rest as long as the slice (55% of a core), 86 ms with half (66%),
 * 72-75 ms with a quarter (74-75%), 80 ms with a tenth and 104 ms with none (the clients, on the same
 * cores, fall behind). At 10,000 clients a quarter and a half were alike (246 and 230 ms).
 */
export const REST_SHARE = 0.25;
/** Clients flushed between two looks at the clock. */
const CLOCK_EVERY = 32;

/**
 * Runs flush passes over all clients. A change asks for a pass, which starts QUIET_DELAY_MS later
 * (a quote reaches a quiet gateway's clients within a few ms). A pass runs in slices of
 * SLICE_BUDGET_MS, each followed by a rest of REST_SHARE of the slice's time (at most `maxDelayMs`), so
 * flushing never takes more than about four fifths of the event loop, replies, user pushes and incoming
 * ticks are never stuck behind a pass over every client, and the writes of a pass leave spread over
 * it rather than in one burst (a burst to thousands of sockets queues up at the receiving end:
 * bench:ws measured tick-to-client p99 163-169 ms with a sliced burst followed by a rest as long as
 * the pass, 104 ms paced). Under load the passes grow with the clients, and so do the batches.
 */
export class FlushScheduler<T> {
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private pending = false;
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

  /** The wait before the next pass: QUIET_DELAY_MS after the last one ended (a long pass has rested along the way). */
  delay(): number {
    return Math.max(0, QUIET_DELAY_MS - (performance.now() - this.lastPassEnd));
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
      const from = performance.now();
      const until = from + SLICE_BUDGET_MS;
      while (i < list.length) {
        this.flushOne(list[i++]!, now);
        if (i % CLOCK_EVERY === 0 && performance.now() >= until) break;
      }
      if (i < list.length && !this.stopped) {
        setTimeout(slice, Math.min(this.maxDelayMs, (performance.now() - from) * REST_SHARE));
        return;
      }
      this.running = false;
      this.lastPassEnd = performance.now();
      this.onPass?.(this.lastPassEnd - started, list.length);
      if (this.pending) this.request();
    };
    slice();
  }
}
