import type { FixFeedSource, FixSessionStatus } from './fix-feed.ts';
import type { FixOrderGateway, FixSymbolRoute, PriceSource, SourceDeps } from './price-source.ts';

/**
 * PRICE_SOURCE=fix. The FIX engine is loaded when the source starts (on the leader), not when the
 * module is: it takes a second and over 100 MB that servers on the other sources should not pay.
 */
export class FixSource implements PriceSource {
  readonly name = 'fix';
  private feed: FixFeedSource | null = null;
  private wanted = false;

  constructor(private readonly deps: SourceDeps) {
    if (!deps.config.fix) throw new Error('PRICE_SOURCE=fix needs FIX_CONFIG');
  }

  async start(): Promise<void> {
    this.wanted = true;
    const { FixFeedSource } = await import('./fix-feed.ts');
    // A stop that came while the engine was loading wins.
    if (!this.wanted || this.feed) return;
    this.feed = new FixFeedSource(this.deps);
    this.feed.start();
  }

  stop(): void {
    this.wanted = false;
    this.feed?.stop();
    this.feed = null;
  }

  sessions(): FixSessionStatus[] {
    return this.feed?.sessions() ?? [];
  }

  routes(): FixSymbolRoute[] {
    return this.feed?.routes() ?? [];
  }

  orders(): FixOrderGateway | null {
    return this.feed?.orders() ?? null;
  }
}
