import { dec } from '@tp/contract/decimal';
import type { MarketServiceImpl } from '../market-service.ts';

/** How several FIX providers make one price per symbol (FIX_CONFIG `mode`; docs/fix.md). */
export type FixMode = 'failover' | 'best';

/** Which provider a symbol's price comes from: the session of its bid and of its ask (the same one in failover); null while none. */
export interface FixSymbolRoute {
  code: string;
  bid: string | null;
  ask: string | null;
}

interface ProviderQuote {
  bid: string;
  ask: string;
  sourceTime: number | undefined;
  receivedAt: number;
}

interface Choice {
  bid: string;
  ask: string;
}

/** How often the choice is looked at again without a quote arriving (a provider going stale or logging off). */
const CHECK_MS = 200;

/**
 * Per symbol, each provider's newest top of book, and the one price handed to the quote pipeline:
 * - failover: the first provider in FIX_CONFIG order whose quote is live (logged on and younger than
 *   the symbol's max quote age); when it goes stale the next live one feeds the symbol, and the
 *   first takes over again as soon as it quotes live again;
 * - best: the highest bid and the lowest ask among the live providers (the first live provider's
 *   own quote when the best bid would cross the best ask).
 * When no provider is live, a quote passes as it arrives: the pipeline shows it and judges it stale by its age.
 */
export class FixRouter {
  private readonly books = new Map<string, Map<string, ProviderQuote>>();
  /** The providers behind each symbol's last published price. */
  private readonly fed = new Map<string, Choice | null>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    readonly mode: FixMode,
    /** Session names in FIX_CONFIG order (the first is the primary). */
    private readonly order: string[],
    private readonly market: MarketServiceImpl,
    private readonly isUp: (session: string) => boolean,
    /** Every symbol code some session asks for: each has a route, null sides until a live quote. */
    private readonly codes: string[] = [],
    private readonly now: () => number = Date.now,
  ) {}

  start(): void {
    this.timer ??= setInterval(() => this.check(), CHECK_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** A provider's new top of book for one of our symbols. */
  quote(session: string, code: string, bid: string, ask: string, sourceTime: number | undefined): void {
    const now = this.now();
    let book = this.books.get(code);
    if (!book) this.books.set(code, (book = new Map()));
    book.set(session, { bid, ask, sourceTime, receivedAt: now });
    const choice = this.choose(code, now);
    if (!choice) {
      this.fed.set(code, { bid: session, ask: session });
      this.publish(code, { bid: session, ask: session }, now);
      return;
    }
    const before = this.fed.get(code);
    if (choice.bid === session || choice.ask === session || !same(before, choice)) this.publish(code, choice, now);
  }

  /** A session logged off: its quotes are no longer live. */
  sessionDown(session: string): void {
    for (const book of this.books.values()) book.delete(session);
    this.check();
  }

  /** Switches the symbols whose live providers changed without a new quote (one went stale or away). */
  check(): void {
    const now = this.now();
    for (const code of this.books.keys()) {
      const choice = this.choose(code, now);
      if (choice && !same(this.fed.get(code), choice)) this.publish(code, choice, now);
    }
  }

  /** Per symbol some session asks for, the providers its price comes from now; null sides when none is live. */
  routes(): FixSymbolRoute[] {
    const now = this.now();
    return [...new Set([...this.codes, ...this.books.keys()])].sort().map((code) => {
      const c = this.choose(code, now);
      return { code, bid: c?.bid ?? null, ask: c?.ask ?? null };
    });
  }

  private live(code: string, now: number): string[] {
    const book = this.books.get(code);
    const maxAge = this.market.symbolByCode(code)?.maxQuoteAgeMs ?? 0;
    return this.order.filter((name) => {
      const q = book?.get(name);
      return q !== undefined && this.isUp(name) && now - pricedAt(q) <= maxAge;
    });
  }

  private choose(code: string, now: number): Choice | null {
    const live = this.live(code, now);
    const first = live[0];
    if (first === undefined) return null;
    if (this.mode === 'failover') return { bid: first, ask: first };
    const book = this.books.get(code)!;
    let bid = first;
    let ask = first;
    for (const name of live.slice(1)) {
      const q = book.get(name)!;
      if (dec(q.bid).gt(book.get(bid)!.bid)) bid = name;
      if (dec(q.ask).lt(book.get(ask)!.ask)) ask = name;
    }
    if (dec(book.get(bid)!.bid).gt(book.get(ask)!.ask)) return { bid: first, ask: first };
    return { bid, ask };
  }

  private publish(code: string, choice: Choice, now: number): void {
    this.fed.set(code, choice);
    const book = this.books.get(code);
    const b = book?.get(choice.bid);
    const a = book?.get(choice.ask);
    const symbol = this.market.symbolByCode(code);
    if (!b || !a || !symbol) return;
    // The price is as old as its older side.
    const times = [b.sourceTime, a.sourceTime].filter((t): t is number => t !== undefined);
    this.market.publishTick({
      symbolId: symbol.id,
      bid: b.bid,
      ask: a.ask,
      time: now,
      ...(times.length ? { sourceTime: Math.min(...times) } : {}),
    });
  }
}

/** When the provider priced the quote (never later than it arrived). */
function pricedAt(q: ProviderQuote): number {
  return q.sourceTime === undefined ? q.receivedAt : Math.min(q.sourceTime, q.receivedAt);
}

function same(a: Choice | null | undefined, b: Choice): boolean {
  return a?.bid === b.bid && a.ask === b.ask;
}
