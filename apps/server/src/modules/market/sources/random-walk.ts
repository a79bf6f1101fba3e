import { type Dec, dec, fixed } from '@tp/contract/decimal';

const YEAR_SECONDS = 365 * 86_400;
/** Expected jumps per day and a jump's typical size, in units of the one-hour volatility. */
const JUMPS_PER_DAY = 3;
const JUMP_HOURS = 0.5;
/** Prices drift back toward the base price over about a month, so a long run stays realistic. */
const REVERSION_PER_SECOND = 1 / (30 * 86_400);

/** Seeds one generator per symbol: the same seed and code always give the same series. */
export function seedOf(seed: number, code: string): number {
  let h = 2166136261 ^ seed;
  for (const ch of `${seed}:${code}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return h >>> 0;
}

/** mulberry32: a small, fast, seedable PRNG giving uniform numbers in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Standard normal numbers from a uniform generator (Box-Muller). */
export function gaussian(uniform: () => number): () => number {
  let spare: number | null = null;
  return () => {
    if (spare !== null) {
      const s = spare;
      spare = null;
      return s;
    }
    const u = 1 - uniform();
    const v = uniform();
    const r = Math.sqrt(-2 * Math.log(u));
    spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  };
}

export interface WalkParams {
  seed: number;
  code: string;
  /** Annual volatility, e.g. 0.07 for EURUSD. */
  volatility: number;
  basePrice: string;
  pricePrecision: number;
}

/**
 * Geometric Brownian motion with weak mean reversion and occasional jumps. The random process
 * works in floats (a log-return); the price it stands for is fixed once per step as an exact
 * decimal at the symbol's precision.
 */
export class RandomWalk {
  private readonly uniform: () => number;
  private readonly normal: () => number;
  private readonly baseValue: number;
  private readonly unit: Dec;
  /** Log of price / base price: the state of the walk (unrounded, so steps smaller than a price unit add up). */
  private logGap: number;
  private cachedText: string | null = null;

  constructor(
    private readonly p: WalkParams,
    start?: string,
  ) {
    this.uniform = mulberry32(seedOf(p.seed, p.code));
    this.normal = gaussian(this.uniform);
    const base = dec(p.basePrice);
    this.baseValue = base.toNumber();
    this.unit = dec(1).div(dec(10).pow(p.pricePrecision));
    this.logGap = dec(start ?? p.basePrice)
      .div(base)
      .ln()
      .toNumber();
  }

  /** A log-return over `dtSeconds`; `direction` -1 walks back in time (history). */
  private logReturn(dtSeconds: number, direction: 1 | -1): number {
    const sigma = this.p.volatility * Math.sqrt(dtSeconds / YEAR_SECONDS);
    const drift = -REVERSION_PER_SECOND * this.logGap * dtSeconds * direction;
    let r = drift + sigma * this.normal();
    if (this.uniform() < (JUMPS_PER_DAY * dtSeconds) / 86_400) {
      r += this.p.volatility * Math.sqrt((JUMP_HOURS * 3600) / YEAR_SECONDS) * this.normal();
    }
    return r;
  }

  /** The current price at the symbol's precision (never below one price unit), as text. */
  priceText(): string {
    if (this.cachedText === null) {
      const exact = fixed(this.baseValue * Math.exp(this.logGap), this.p.pricePrecision);
      this.cachedText = this.unit.gt(exact) ? this.unit.toFixed(this.p.pricePrecision) : exact;
    }
    return this.cachedText;
  }

  /** The current price at the symbol's precision (never below one price unit). */
  get price(): Dec {
    return dec(this.priceText());
  }

  /** Log of price / base price. */
  get gap(): number {
    return this.logGap;
  }

  /** Moves the walk by one step without computing the price (history draws many steps per bar). */
  move(dtSeconds: number, direction: 1 | -1 = 1): number {
    this.logGap += direction * this.logReturn(dtSeconds, direction);
    this.cachedText = null;
    return this.logGap;
  }

  /** Moves the price by one step and returns it at the precision. */
  step(dtSeconds: number, direction: 1 | -1 = 1): Dec {
    this.move(dtSeconds, direction);
    return this.price;
  }

  /** A uniform number from the symbol's generator (volumes, phases). */
  random(): number {
    return this.uniform();
  }
}
