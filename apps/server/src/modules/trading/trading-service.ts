import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { AccountService } from './account/account-service.ts';
import { AlertService } from './alerts/alert-service.ts';
import { AccountNotices } from './events/account-notices.ts';
import { ChangeFeed } from './events/change-feed.ts';
import { DemoService } from './account/demo-service.ts';
import { TradingEngine } from './engine/engine.ts';
import { OrderOps } from './settlement/order-ops.ts';
import { HedgeReconciler } from './hedging/hedge-reconciler.ts';
import { HedgeService } from './hedging/hedge-service.ts';
import { hedgeBookView } from './hedging/hedge-view.ts';
import { OrderService } from './order-service.ts';
import { PendingExpiry } from './engine/pending-expiry.ts';
import { PositionTools } from './settlement/position-tools.ts';
import { TrailingStops } from './engine/trailing-stops.ts';
import { liveOrdersOfSymbol, logBalanceMove } from './db/repository.ts';
import { Settlement } from './settlement/settlement.ts';
import { StatementService } from './statements/statement-service.ts';
import { SwapService } from './swaps/swap-service.ts';
import { TradingSettings } from './admission/settings.ts';
import { GroupService } from './account/group-service.ts';
import type { GroupedSymbol } from './admission/groups.ts';
import type { SymbolInfo } from '../market/index.ts';
import { TriggerExecutor } from './engine/trigger-executor.ts';
import { RiskWarnings } from './disclosure/risk-warning.ts';
import { DeskTotals } from './engine/desk-totals.ts';
import { type DeskBook, type DeskClientFigures, deskBookOf, deskClientsOf, deskGroupsOf } from './views/desk-view.ts';
import { termsOf } from './views/order-view.ts';
import { closedFlowSince, lastMarginCalls, openPositionsOf, type OrderRow } from './views/read-model.ts';
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
  /** Orders to the liquidity providers and the hedge book (docs/fix.md#hedging). */
  readonly hedges: HedgeService;
  /** Brings the hedge book to the A-book and hybrid groups' target (leader only). */
  readonly hedgeReconciler: HedgeReconciler;
  readonly accounts: AccountService;
  readonly demo: DemoService;
  /** Account groups as staff manage them (the admission and the engine read them from `settings.groups`). */
  readonly groups: GroupService;
  readonly engine: TradingEngine;
  readonly swaps: SwapService;
  readonly positions: PositionTools;
  readonly alerts: AlertService;
  readonly trailing: TrailingStops;
  readonly expiry: PendingExpiry;
  readonly statements: StatementService;
  /** The regulatory profile's risk warning (the share of retail accounts that lost money). */
  readonly riskWarnings: RiskWarnings;
  /** Deposits, withdrawals, identity reviews and support replies in the trader's notifications. */
  readonly accountNotices: AccountNotices;
  private readonly feed: ChangeFeed;

  /**
   * A symbol's terms as a user's group offers them (trade_list): the leverage list, the largest lot
   * and the fee rate; a guest (null) sees the default real group's. Null: the group does not offer it.
   */
  async symbolTermsFor(user: { id: number; isDemo: boolean } | null): Promise<(sym: SymbolInfo) => GroupedSymbol | null> {
    const groups = this.settings.groups;
    if (user) await groups.ensureUsers(this.ctx.db, [user.id]);
    else await groups.ensureUsers(this.ctx.db, []);
    const groupId = user ? groups.groupIdOf(user.id, user.isDemo) : (groups.defaultGroup(false)?.id ?? null);
    return (sym) => {
      const g = groups.symbolFor(groupId, sym);
      return g.enabled ? { ...g, feeRate: groups.feeRateShown(g, this.settings.tradeFeeType) } : null;
    };
  }

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
    this.hedges = new HedgeService(ctx);
    this.orders = new OrderService(ctx, this.settings, settlement, ops, this.hedges);
    this.hedgeReconciler = new HedgeReconciler(ctx, this.settings, this.hedges, (listener) => feed.listen(() => listener()));
    this.positions = new PositionTools(ctx, this.settings, settlement, ops);
    this.alerts = new AlertService(ctx);
    this.trailing = new TrailingStops(ctx, ops);
    this.expiry = new PendingExpiry(ctx, ops);
    this.accounts = new AccountService(ctx, this.settings);
    this.statements = new StatementService(ctx);
    this.riskWarnings = new RiskWarnings(ctx, this.settings);
    this.demo = new DemoService(ctx, this.settings, settlement, ops);
    this.groups = new GroupService(ctx, this.settings, (userId, isDemo) => feed.publish([{ type: 'review', userId, isDemo }]));
    this.swaps = new SwapService(ctx, (changes) => feed.publish(changes));
    // PGlite runs one transaction at a time; PostgreSQL takes several users' triggers side by side.
    const concurrency = ctx.dbKind === 'pglite' ? 1 : Math.max(2, Math.min(8, Math.floor(ctx.config.DATABASE_POOL_SIZE / 2)));
    this.engine = new TradingEngine(ctx, this.settings, new TriggerExecutor(ctx, this.settings, settlement, ops), {
      concurrency,
      sweepMs: 1_000,
    });
  }

  /** The hedge book beside the A-book and hybrid clients' net exposure (the dealer's desk). */
  hedgeBook() {
    return hedgeBookView(this.ctx.services.market, this.hedges, this.hedgeReconciler);
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
  async deskBook(isDemo: boolean): Promise<DeskBook> {
    const market = this.ctx.services.market;
    const groups = this.settings.groups;
    const info = (groupId: number) => groups.group(groupId);
    if (this.engine.running) {
      const meta = { isDemo, source: 'engine' as const };
      return {
        ...deskBookOf(this.engine.deskTotals(isDemo), market, meta),
        groups: deskGroupsOf(this.engine.deskTotalsByGroup(isDemo), market, meta, info),
      };
    }
    const rows = await openPositionsOf(this.ctx.db, isDemo);
    await groups.ensureUsers(this.ctx.db, [...new Set(rows.map((r) => r.userId))]);
    const totals = new DeskTotals();
    for (const row of rows) totals.add(isDemo, groups.groupIdOf(row.userId, isDemo) ?? 0, termsOf(row));
    const meta = { isDemo, source: 'database' as const };
    return { ...deskBookOf(totals.of(isDemo), market, meta), groups: deskGroupsOf(totals.byGroup(isDemo), market, meta, info) };
  }

  /**
   * The clients who move the desk's book (real or demo accounts): from the engine's books where it runs,
   * otherwise from the database at this server's quotes (no margin-call state there: it is derived from the level).
   */
  async deskClients(isDemo: boolean): Promise<DeskClientFigures & { source: DeskBook['source'] }> {
    const market = this.ctx.services.market;
    const levels = (userId: number) => {
      const terms = this.settings.accountTerms(userId, isDemo);
      return { marginCall: terms.marginCallLevel, stopOut: terms.stopOutLevel };
    };
    if (this.engine.running) {
      const accounts = [...this.engine.openAccounts(isDemo)].map((a) => ({
        userId: a.userId,
        cash: a.cash,
        locked: a.locked,
        marginCall: a.marginCall,
        positions: [...a.positions.values()].map((p) => ({ ...p, orderId: p.row.id })),
      }));
      return { ...(await deskClientsOf(accounts, market, levels)), source: 'engine' };
    }
    const open = await this.openAccounts();
    const rows = await openPositionsOf(this.ctx.db, isDemo);
    const users = new Set(rows.map((r) => r.userId));
    const accounts = open
      .filter((a) => users.has(a.userId))
      .map((a) => ({
        userId: a.userId,
        cash: a.figures.balance,
        locked: a.figures.lockBalance,
        marginCall: false,
        positions: rows.filter((r) => r.userId === a.userId).map((r) => ({ ...termsOf(r), orderId: r.id })),
      }));
    return { ...(await deskClientsOf(accounts, market, levels)), source: 'database' };
  }

  /** Per client, positions closed since `since` (the desk's flow quality and 30-day results). */
  closedFlowSince(isDemo: boolean, since: Date, quickSeconds: number) {
    return closedFlowSince(this.ctx.db, isDemo, since, quickSeconds);
  }

  /** When each user's last margin call began. */
  lastMarginCalls(userIds: number[]) {
    return lastMarginCalls(this.ctx.db, userIds);
  }

  /** Staff close of an open position (closed_type 5). */
  closeOrderByStaff(orderId: number) {
    return this.orders.closeByStaff(orderId);
  }
}
