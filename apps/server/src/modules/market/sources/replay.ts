import fs from 'node:fs';
import path from 'node:path';
import { SERVER_SRC } from '../../../paths.ts';
import type { PriceSource, SourceDeps } from './price-source.ts';

export interface RecordedTick {
  time: number;
  code: string;
  bid: string;
  ask: string;
  volume?: string;
}

const PRICE = /^\d+(\.\d+)?$/;
const TIMER_MS = 20;
export const SAMPLE_TICKS_FILE = path.join(SERVER_SRC, 'modules/market/fixtures/sample-ticks.csv');

/** Parses `time,code,bid,ask[,volume]` lines (time in epoch ms or ISO 8601); a header line and bad lines are skipped. */
export function parseTickCsv(text: string): { ticks: RecordedTick[]; skipped: number } {
  const ticks: RecordedTick[] = [];
  let skipped = 0;
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const [timeRaw = '', code = '', bid = '', ask = '', volume] = line.split(',').map((c) => c.trim());
    if (i === 0 && timeRaw.toLowerCase() === 'time') continue;
    const time = /^\d+$/.test(timeRaw) ? Number(timeRaw) : Date.parse(timeRaw);
    if (!Number.isFinite(time) || !code || !PRICE.test(bid) || !PRICE.test(ask) || (volume && !PRICE.test(volume))) {
      skipped++;
      continue;
    }
    ticks.push({ time, code: code.toUpperCase(), bid, ask, ...(volume ? { volume } : {}) });
  }
  ticks.sort((a, b) => a.time - b.time);
  return { ticks, skipped };
}

/**
 * Plays a recorded tick file with its original spacing (sped up by PRICE_TICK_MULTIPLIER),
 * stamped with the current time, and starts over at the end.
 */
export class ReplaySource implements PriceSource {
  readonly name = 'replay';
  private timer: NodeJS.Timeout | null = null;
  private ticks: RecordedTick[] = [];
  private index = 0;
  private startedAt = 0;
  /** How many times the file was played to its end. */
  rounds = 0;

  constructor(
    private readonly deps: SourceDeps,
    private readonly file = deps.config.REPLAY_FILE ?? SAMPLE_TICKS_FILE,
  ) {}

  start(): void {
    const { ticks, skipped } = parseTickCsv(fs.readFileSync(this.file, 'utf8'));
    if (skipped) this.deps.log.warn({ file: this.file, skipped }, 'replay: lines skipped');
    const unknown = new Set(ticks.filter((t) => !this.deps.market.symbolByCode(t.code)).map((t) => t.code));
    if (unknown.size) this.deps.log.warn({ codes: [...unknown] }, 'replay: unknown symbols ignored');
    this.ticks = ticks.filter((t) => !unknown.has(t.code));
    if (!this.ticks.length) {
      this.deps.log.error({ file: this.file }, 'replay: no ticks to play');
      return;
    }
    this.index = 0;
    this.startedAt = Date.now();
    this.timer = setInterval(() => this.run(Date.now()), TIMER_MS);
  }

  private run(now: number): void {
    const first = this.ticks[0]!.time;
    const speed = this.deps.config.PRICE_TICK_MULTIPLIER;
    while (this.index < this.ticks.length) {
      const rec = this.ticks[this.index]!;
      if ((rec.time - first) / speed > now - this.startedAt) return;
      this.index++;
      const symbol = this.deps.market.symbolByCode(rec.code)!;
      this.deps.market.publishTick({ symbolId: symbol.id, bid: rec.bid, ask: rec.ask, volume: rec.volume, time: now });
    }
    this.rounds++;
    this.index = 0;
    this.startedAt = now;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
