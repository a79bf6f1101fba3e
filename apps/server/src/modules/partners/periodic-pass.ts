import type { AppContext } from '../../context.ts';

/**
 * A pass run every `everyMs` and on demand, one at a time: a pass asked for during another waits for
 * it and runs after. A failed timed pass is logged; the next one runs as usual.
 */
export abstract class PeriodicPass<Args extends unknown[] = []> {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    protected readonly ctx: AppContext,
    private readonly everyMs: number,
    private readonly failure: string,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(
      () => void this.run(...([] as unknown as Args)).catch((err: unknown) => this.ctx.log.error({ err }, this.failure)),
      this.everyMs,
    );
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  /** One pass: answers what it counts (commissions posted, payouts created). */
  async run(...args: Args): Promise<number> {
    while (this.running) await this.running.catch(() => undefined);
    this.running = this.pass(...args);
    try {
      return await this.running;
    } finally {
      this.running = null;
    }
  }

  protected abstract pass(...args: Args): Promise<number>;
}
