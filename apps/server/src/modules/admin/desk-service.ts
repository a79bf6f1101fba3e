import { moneyStr } from '@tp/contract/decimal';
import { pushMessage } from '@tp/contract/pushes';
import type { DeskExposure } from '@tp/contract/schemas/admin';
import type { AppContext } from '../../context.ts';
import { BusChannels } from '../../platform/bus-channels.ts';
import { houseTotalsSince } from '../ledger/index.ts';

/** The desk push's period: about twice a second. */
const PUSH_MS = 500;
/** Desk sockets say they are there every second; after this long without word, the pushes stop. */
const WANTED_FOR_MS = 3_000;

const startOfTodayUtc = () => {
  const d = new Date();
  d.setUTCHours(0, 0, 0, 0);
  return d;
};

/**
 * The dealer's desk: the house's book as the engine holds it, and its realised result today. The
 * server running the engine pushes it on a timer of its own (never per tick), and only while some
 * server has a staff socket subscribed to DESK.
 */
export class DealerDesk {
  private wantedUntil = 0;
  private timer: NodeJS.Timeout | null = null;
  private publishing = false;
  private offWanted: (() => void) | null = null;

  constructor(private readonly ctx: AppContext) {}

  /** Real or demo accounts' figures now. */
  async exposure(isDemo: boolean): Promise<DeskExposure> {
    const [book, house] = await Promise.all([
      this.ctx.services.trading.deskBook(isDemo),
      houseTotalsSince(this.ctx.db, ['counterparty'], startOfTodayUtc(), isDemo),
    ]);
    return { ...book, house_realised_today: moneyStr(house.get('counterparty') ?? 0) };
  }

  start(): void {
    this.offWanted ??= this.ctx.bus.subscribe(BusChannels.deskWanted, () => this.wanted());
  }

  stop(): void {
    this.offWanted?.();
    this.offWanted = null;
    this.stopPushing();
  }

  private wanted(): void {
    this.wantedUntil = Date.now() + WANTED_FOR_MS;
    if (this.timer) return;
    this.timer = setInterval(() => void this.publish(), PUSH_MS);
    this.timer.unref();
    void this.publish();
  }

  private stopPushing(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async publish(): Promise<void> {
    if (Date.now() > this.wantedUntil) return this.stopPushing();
    // Only the server whose engine holds the books pushes (in a cluster, the leader); a slow pass is not stacked on.
    if (this.publishing || !this.ctx.services.trading.engine.running) return;
    this.publishing = true;
    try {
      const [real, demo] = await Promise.all([this.exposure(false), this.exposure(true)]);
      this.ctx.bus.publish(BusChannels.staffDesk, pushMessage('DESK', { real, demo }));
    } catch (err) {
      this.ctx.log.warn({ err }, 'dealer desk push failed');
    } finally {
      this.publishing = false;
    }
  }
}
