import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { AccountService } from './account/account-service.ts';
import { AlertService } from './alerts/alert-service.ts';
import { AccountNotices } from './events/account-notices.ts';
import { ChangeFeed } from './events/change-feed.ts';
import { DemoService } from './account/demo-service.ts';
import { TradingEngine } from './engine/engine.ts';
import { OrderOps } from './settlement/order-ops.ts';
import { OrderService } from './order-service.ts';
import { PendingExpiry } from './engine/pending-expiry.ts';
import { PositionTools } from './settlement/position-tools.ts';
import { TrailingStops } from './engine/trailing-stops.ts';
import { liveOrdersOfSymbol, logBalanceMove } from './db/repository.ts';
import { Settlement } from './settlement/settlement.ts';
import { StatementService } from './statements/statement-service.ts';
import { SwapService } from './swaps/swap-service.ts';
import { TradingSettings } from './admission/settings.ts';
import { TriggerExecutor } from './engine/trigger-executor.ts';
import { type DeskBook, deskBookOf } from './views/desk-view.ts';
import { termsOf } from './views/order-view.ts';
import { openPositionsOf, type OrderRow } from './views/read-model.ts';
import type { Figures, PositionTerms } from './engine/figures.ts';

export interface OpenAccount {
  userId: number;
  figures: Figures;
  positions: (PositionTerms & { leverage: number })[];
}

/** What the trading module offers: `ctx.services.trading`. */
export class TradingService {
  readonly settings: TradingSettings;
  readonly orders: OrderService;
  readonly accounts: AccountService;
  readonly demo: DemoService;
  readonly engine: TradingEngine;
  readonly swaps: SwapService;
  readonly positions: PositionTools;
  readonly alerts: AlertService;
  readonly trailing: TrailingStops;
  readonly expiry: PendingExpiry;
  readonly statements: StatementService;
  /** Deposits, withdrawals, identity reviews and support replies in the trader's notifications. */
  readonly accountNotices: AccountNotices;
  private readonly feed: ChangeFeed;

  constructor(private readonly ctx: AppContext) {
    this.settings = new TradingSettings(ctx.config.DEMO_INITIAL_BALANCE);
    this.accountNotices = new AccountNotices(ctx);
    const settlement = new Settlement(ctx);
    const feed = new ChangeFeed(ctx, () => this.engine);
    this.feed = feed;
    const ops = new OrderOps(ctx, this.settings, settlement, (changes) => feed.publish(changes));
    // Balances moved by anyone else (withdrawals, staff adjustments, deposits, swaps): the account is reviewed at
    // once here, and the move is in the change log, in its own transaction, for the leader elsewhere.
    ctx.services.ledger.onBalancesMoved(async (userId, isDemo, tx) => {
      if (ops.claims(tx, userId)) return;
      await logBalanceMove(tx, userId);
      feed.publish([{ type: 'review', userId, isDemo }]);
    });
    this.orders = new OrderService(ctx, this.settings, settlement, ops);
    this.positions = new PositionTools(ctx, this.settings, settlement, ops);
    this.alerts = new AlertService(ctx);
    this.trailing = new TrailingStops(ctx, ops);
    this.expiry = new PendingExpiry(ctx, ops);
    this.accounts = new AccountService(ctx, this.settings);
    this.statements = new StatementService(ctx);
    this.demo = new DemoService(ctx, this.settings, settlement, ops);
    this.swaps = new SwapService(ctx, (changes) => feed.publish(changes));
    // PGlite runs one transaction at a time; PostgreSQL takes several users' triggers side by side.
    const concurrency = ctx.dbKind === 'pglite' ? 1 : Math.max(2, Math.min(8, Math.floor(ctx.config.DATABASE_POOL_SIZE / 2)));
    this.engine = new TradingEngine(ctx, this.settings, new TriggerExecutor(ctx, this.settings, settlement, ops), {
      concurrency,
      sweepMs: 1_000,
    });
  }

  /**
   * Calls `listener` after every order change committed on this server (with the users concerned) and
   * when another server announces one (null): copy trading looks at once instead of at its next poll.
   */
  onOrderChanges(listener: (userIds: number[] | null) => void): () => void {
    return this.feed.listen(listener);
  }

  /** Account figures (freeMargin = available prepayment), e.g. for withdrawals; pass the transaction holding ledger.lockUser. */
  accountFigures(userId: number, db?: DbOrTx) {
    return this.accounts.figures(userId, db);
  }

  /**
   * Every account with an open position (real and demo): its figures now and its positions' terms,
   * for the back office's previews of rule changes (read without locks: a snapshot, not a decision).
   */
  async openAccounts(): Promise<OpenAccount[]> {
    const rows = [...(await openPositionsOf(this.ctx.db, false)), ...(await openPositionsOf(this.ctx.db, true))];
    const byUser = new Map<number, OrderRow[]>();
    for (const r of rows) byUser.set(r.userId, [...(byUser.get(r.userId) ?? []), r]);
    const accounts: OpenAccount[] = [];
    for (const [userId, list] of byUser) {
      const figures = await this.accounts.figures(userId);
      accounts.push({ userId, figures, positions: list.map((r) => ({ ...termsOf(r), leverage: r.leverage })) });
    }
    return accounts;
  }

  /** Open positions and pending orders of one user on one symbol. */
  liveOrdersOfSymbol(userId: number, symbolId: number, page: { limit: number; offset: number }) {
    return liveOrdersOfSymbol(this.ctx.db, userId, symbolId, page);
  }

  /**
   * The dealer's desk of real or demo accounts: from the engine's books where it runs (the leader, or
   * a lone server), otherwise from the open positions in the database, at this server's quotes.
   */
  deskBook(isDemo: boolean): Promise<DeskBook> {
    const market = this.ctx.services.market;
    if (this.engine.running) return deskBookOf(this.engine.openPositions(isDemo), market, { isDemo, source: 'engine' });
    return openPositionsOf(this.ctx.db, isDemo).then((rows) => deskBookOf(rows.map(termsOf), market, { isDemo, source: 'database' }));
  }

  /** Staff close of an open position (closed_type 5). */
  closeOrderByStaff(orderId: number) {
    return this.orders.closeByStaff(orderId);
  }
}
