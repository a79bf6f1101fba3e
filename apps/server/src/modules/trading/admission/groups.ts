import { TradeFeeType } from '@tp/contract/constants';
import { D, type Dec, dec, money } from '@tp/contract/decimal';
import { feeOf, marginOf, markupOf } from '@tp/contract/formulas';
import type { CommissionType, GroupBook as GroupBookName, GroupProfile, StopOutPolicy } from '@tp/contract/schemas/admin';
import type { DbOrTx } from '../../../platform/db/client.ts';
import { userGroupIds } from '../../auth/index.ts';
import type { SymbolInfo } from '../../market/index.ts';
import { accountGroups, groupSymbols } from '../db/schema.ts';

/** A leverage tier: cumulative lots in the symbol up to `upTo` (null: beyond) at most at `leverage`. */
export interface LeverageTier {
  upTo: Dec | null;
  leverage: number;
}

export interface GroupSymbolTerms {
  enabled: boolean;
  spreadMarkupPoints: number;
  leverages: number[];
  maxLots: Dec | null;
  commissionType: CommissionType | null;
  commissionRate: Dec;
  swapFree: boolean;
  swapLong: Dec | null;
  swapShort: Dec | null;
  deviationPoints: number | null;
  hedgeThresholdLots: Dec | null;
  tiers: LeverageTier[];
}

export interface GroupRow {
  id: number;
  name: string;
  kind: 'demo' | 'real';
  profile: GroupProfile;
  marginCallLevel: Dec | null;
  stopOutLevel: Dec | null;
  stopOutPolicy: StopOutPolicy;
  maxOpenPositions: number | null;
  maxPendingOrders: number | null;
  negativeBalanceProtection: boolean | null;
  book: GroupBookName;
  isDefault: boolean;
  version: number;
}

/** An account's terms as its group and the house's settings make them. */
export interface AccountTerms {
  groupId: number;
  profile: GroupProfile;
  marginCallLevel: Dec;
  stopOutLevel: Dec;
  stopOutPolicy: StopOutPolicy;
  maxOpenPositions: number;
  maxPendingOrders: number;
  negativeBalanceProtection: boolean;
}

/** A symbol as a group's member trades it: the symbol's terms with the group's applied. */
export interface GroupedSymbol extends SymbolInfo {
  /** False: the group does not offer the symbol. */
  enabled: boolean;
  commission: { type: CommissionType; rate: Dec } | null;
  tiers: LeverageTier[];
  /** The group's default deviation in points (null: the symbol's default). */
  deviationPoints: number | null;
  /** No swaps for the group's members on this symbol. */
  swapFree: boolean;
  /** The group's spread markup on the symbol's quote (price units; null: none): new orders carry it for their life. */
  markup: { bid: Dec; ask: Dec } | null;
}

/** The order row's columns for a group's markup (nulls: none). */
export const markupColumns = (m: { bid: Dec; ask: Dec } | null): { markupBid: string | null; markupAsk: string | null } =>
  m ? { markupBid: m.bid.toString(), markupAsk: m.ask.toString() } : { markupBid: null, markupAsk: null };

/** The house's account-wide settings the group's nulls fall back to. */
export interface HouseLevels {
  marginCallLevel: Dec;
  stopOutLevel: Dec;
  maxOpenPositions: number;
  maxPendingOrders: number;
  negativeBalanceProtection: boolean;
}

// ---------------------------------------------------------------- ESMA retail
/** Currencies whose pairs among themselves are "major" under ESMA's product intervention (30:1). */
const ESMA_MAJOR_CCY = new Set(['USD', 'EUR', 'JPY', 'GBP', 'CAD', 'CHF']);
const MAJOR_INDEX =
  /^(US30|US500|SPX|SPX500|NAS100|US100|USTEC|GER30|GER40|DE30|DE40|DAX|UK100|FTSE|JP225|JPN225|FRA40|CAC40|EU50|EUSTX50|STOXX50|AUS200)/i;
export const ESMA_STOP_OUT = dec(50);

/** The highest leverage ESMA allows a retail client on a symbol: 30 major FX, 20 minor FX, gold and major indices, 10 other commodities and indices, 5 equities, 2 crypto. */
export function esmaCap(sym: Pick<SymbolInfo, 'code' | 'categoryKey'>): number {
  const code = sym.code.toUpperCase().replace(/[^A-Z0-9]/g, '');
  switch (sym.categoryKey) {
    case 'forex': {
      const base = code.slice(0, 3);
      const quote = code.slice(3, 6);
      return ESMA_MAJOR_CCY.has(base) && ESMA_MAJOR_CCY.has(quote) ? 30 : 20;
    }
    case 'commodities':
      return code.startsWith('XAU') || code.startsWith('GOLD') ? 20 : 10;
    case 'indices':
      return MAJOR_INDEX.test(code) ? 20 : 10;
    case 'crypto':
      return 2;
    case 'stocks':
    case 'equities':
      return 5;
    default:
      // An unknown category: the strictest non-crypto cap.
      return 5;
  }
}

// ---------------------------------------------------------------- the book
/** How long a server trusts its copy of a user's group before reading it again (a move on another server). */
const USER_TTL_MS = 5_000;

/**
 * Account groups in memory (reloaded with the trading settings), and each user's group: read when
 * first needed and again after USER_TTL_MS on the order path; the engine reads a moved user's group
 * again from the change log (a move writes a row there).
 */
export class GroupBook {
  private groups = new Map<number, GroupRow>();
  private symbols = new Map<string, GroupSymbolTerms>();
  private users = new Map<number, { groupId: number; at: number }>();
  private loaded = false;

  async reload(db: DbOrTx): Promise<void> {
    const [groups, rows] = await Promise.all([db.select().from(accountGroups), db.select().from(groupSymbols)]);
    const n = (v: string | null) => (v === null ? null : dec(v));
    this.groups = new Map(
      groups.map((g) => [
        g.id,
        {
          id: g.id,
          name: g.name,
          kind: g.kind as GroupRow['kind'],
          profile: g.profile as GroupProfile,
          marginCallLevel: n(g.marginCallLevel),
          stopOutLevel: n(g.stopOutLevel),
          stopOutPolicy: g.stopOutPolicy as StopOutPolicy,
          maxOpenPositions: g.maxOpenPositions,
          maxPendingOrders: g.maxPendingOrders,
          negativeBalanceProtection: g.negativeBalanceProtection,
          book: g.book as GroupBookName,
          isDefault: g.isDefault,
          version: g.version,
        },
      ]),
    );
    this.symbols = new Map(rows.map((r) => [`${r.groupId}:${r.symbolId}`, symbolTermsOf(r)]));
    this.loaded = true;
  }

  group(id: number): GroupRow | undefined {
    return this.groups.get(id);
  }

  /** Every group whose execution book is `book`. */
  groupsOfBook(book: GroupBookName): GroupRow[] {
    return [...this.groups.values()].filter((g) => g.book === book);
  }

  /** A hybrid group's hedge threshold in a symbol (net lots the house keeps); null: none set. */
  hedgeThreshold(groupId: number, symbolId: number): Dec | null {
    return this.symbols.get(`${groupId}:${symbolId}`)?.hedgeThresholdLots ?? null;
  }

  /** The default group of a kind (new users join it; a user whose group is not known yet is taken to be in it). */
  defaultGroup(isDemo: boolean): GroupRow | undefined {
    const kind = isDemo ? 'demo' : 'real';
    for (const g of this.groups.values()) if (g.kind === kind && g.isDefault) return g;
    return undefined;
  }

  /** Reads the groups of these users when not known (or older than `maxAgeMs`); with `force`, always. */
  async ensureUsers(db: DbOrTx, userIds: number[], maxAgeMs = USER_TTL_MS, force = false): Promise<void> {
    if (!this.loaded) await this.reload(db);
    const now = Date.now();
    const missing = force
      ? userIds
      : userIds.filter((id) => {
          const u = this.users.get(id);
          return !u || now - u.at > maxAgeMs;
        });
    if (!missing.length) return;
    const read = new Map<number, number>();
    for (let i = 0; i < missing.length; i += 5_000)
      for (const [id, g] of await userGroupIds(db, missing.slice(i, i + 5_000))) read.set(id, g);
    for (const [id, groupId] of read) this.users.set(id, { groupId, at: now });
    // A group saved on another server since the last reload: read the groups again.
    if ([...read.values()].some((g) => !this.groups.has(g))) await this.reload(db);
  }

  /** Whether this server has read the user's group. */
  knows(userId: number): boolean {
    return this.users.has(userId);
  }

  /** Notes a user's group as just written (set_group on this server). */
  setUser(userId: number, groupId: number): void {
    this.users.set(userId, { groupId, at: Date.now() });
  }

  /** The user's group as last read (the default group of their kind before a first read). */
  groupIdOf(userId: number, isDemo: boolean): number | null {
    return this.users.get(userId)?.groupId ?? this.defaultGroup(isDemo)?.id ?? null;
  }

  /** The account-wide terms of a user's group, the house's settings filling its nulls; an ESMA retail group closes out at 50% with negative balance protection. */
  accountTerms(userId: number, isDemo: boolean, house: HouseLevels): AccountTerms {
    const groupId = this.groupIdOf(userId, isDemo);
    const g = groupId === null ? undefined : this.groups.get(groupId);
    const esma = g?.profile === 'esma_retail';
    const stopOut = g?.stopOutLevel ?? house.stopOutLevel;
    return {
      groupId: groupId ?? 0,
      profile: g?.profile ?? 'none',
      marginCallLevel: g?.marginCallLevel ?? house.marginCallLevel,
      stopOutLevel: esma ? D.max(stopOut, ESMA_STOP_OUT) : stopOut,
      stopOutPolicy: g?.stopOutPolicy ?? 'largest_loss',
      maxOpenPositions: g?.maxOpenPositions ?? house.maxOpenPositions,
      maxPendingOrders: g?.maxPendingOrders ?? house.maxPendingOrders,
      negativeBalanceProtection: esma || (g?.negativeBalanceProtection ?? house.negativeBalanceProtection),
    };
  }

  /** The group's fee rate in the house's fee type's terms (ForexFeeRate), when its commission can be said so; else the symbol's. */
  feeRateShown(sym: GroupedSymbol, houseFeeType: number): Dec {
    const c = sym.commission;
    if (c?.type === 'per_lot' && houseFeeType === TradeFeeType.PER_LOT) return c.rate;
    if (c?.type === 'percent_of_margin' && houseFeeType === TradeFeeType.PERCENT_OF_MARGIN) return c.rate.div(100);
    return sym.feeRate;
  }

  /** A group's own terms of one symbol (undefined: the symbol's own). */
  symbolRow(groupId: number, symbolId: number): GroupSymbolTerms | undefined {
    return this.symbols.get(`${groupId}:${symbolId}`);
  }

  /** A symbol as the group's members trade it (the symbol's own terms when the group has no row for it). */
  symbolFor(groupId: number | null, sym: SymbolInfo): GroupedSymbol {
    const g = groupId === null ? undefined : this.groups.get(groupId);
    return groupedSymbol(g?.profile ?? 'none', g ? this.symbols.get(`${g.id}:${sym.id}`) : undefined, sym);
  }
}

/** A group's row of a symbol's terms, as stored, in exact decimals. */
export function symbolTermsOf(r: typeof groupSymbols.$inferInsert): GroupSymbolTerms {
  const n = (v: string | null | undefined) => (v === null || v === undefined ? null : dec(v));
  return {
    enabled: r.enabled ?? true,
    spreadMarkupPoints: r.spreadMarkupPoints ?? 0,
    leverages: r.leverages ?? [],
    maxLots: n(r.maxLots),
    commissionType: (r.commissionType ?? null) as CommissionType | null,
    commissionRate: dec(r.commissionRate ?? 0),
    swapFree: r.swapFree ?? false,
    swapLong: n(r.swapLong),
    swapShort: n(r.swapShort),
    deviationPoints: r.deviationPoints ?? null,
    hedgeThresholdLots: n(r.hedgeThresholdLots),
    tiers: [...(r.leverageTiers ?? [])]
      .map((t) => ({ upTo: t.up_to_lots === null ? null : dec(t.up_to_lots), leverage: t.leverage }))
      .sort((a, b) => (a.upTo === null ? 1 : b.upTo === null ? -1 : a.upTo.comparedTo(b.upTo))),
  };
}

/** A symbol on a group's terms: its profile's caps, and its own row for the symbol (none: the symbol's terms). */
export function groupedSymbol(profile: GroupProfile, row: GroupSymbolTerms | undefined, sym: SymbolInfo): GroupedSymbol {
  let leverages = sym.leverages;
  if (row?.leverages.length) {
    const ids = new Map(sym.leverages.map((l) => [l.value, l.id]));
    leverages = [...row.leverages].sort((a, b) => a - b).map((value) => ({ id: ids.get(value) ?? value, value }));
  }
  if (profile === 'esma_retail') {
    const cap = esmaCap(sym);
    const within = leverages.filter((l) => l.value <= cap);
    leverages = within.length || !leverages.length ? within : [{ id: cap, value: cap }];
  }
  return {
    ...sym,
    leverages,
    maxLots: row?.maxLots ?? sym.maxLots,
    swapLong: row?.swapFree ? dec(0) : (row?.swapLong ?? sym.swapLong),
    swapShort: row?.swapFree ? dec(0) : (row?.swapShort ?? sym.swapShort),
    enabled: row?.enabled ?? true,
    commission: row?.commissionType ? { type: row.commissionType, rate: row.commissionRate } : null,
    tiers: row?.tiers ?? [],
    deviationPoints: row?.deviationPoints ?? null,
    swapFree: row?.swapFree ?? false,
    markup: row ? markupOf(row.spreadMarkupPoints, sym.pricePrecision) : null,
  };
}

// ---------------------------------------------------------------- margin and fee with the group's terms
/**
 * The margin of `lots` more in a symbol where the account already holds `held` lots: with leverage
 * tiers, each slice of the cumulative lots is margined at min(chosen leverage, its tier's leverage).
 */
export function groupMarginOf(sym: GroupedSymbol, lots: Dec, price: Dec, leverage: number, quoteToUsd: Dec, held: Dec = dec(0)): Dec {
  if (!sym.tiers.length || sym.marginMode === 2) return marginOf(sym, lots, price, leverage, quoteToUsd);
  let total = dec(0);
  let from = held;
  const to = held.plus(lots);
  for (const tier of sym.tiers) {
    if (from.gte(to)) break;
    const bound = tier.upTo === null ? to : D.min(tier.upTo, to);
    if (bound.lte(from)) continue;
    const slice = bound.minus(from);
    total = total.plus(marginOf(sym, slice, price, Math.min(leverage, tier.leverage), quoteToUsd));
    from = bound;
  }
  // Lots beyond the last bounded tier: at its leverage.
  if (from.lt(to)) {
    const last = sym.tiers[sym.tiers.length - 1]!;
    total = total.plus(marginOf(sym, to.minus(from), price, Math.min(leverage, last.leverage), quoteToUsd));
  }
  return money(total);
}

/**
 * The commission of the close side, fixed at the open: a group's commission is per side, so the close
 * pays what the open paid (for the same lots, on the opening terms); the house's own fee is charged at
 * the open only.
 */
export const closeFeeOf = (sym: GroupedSymbol, openFee: Dec): Dec => (sym.commission ? openFee : dec(0));

/** The fee of an order: the group's commission (per lot in USD, per million USD notional, or percent of the margin) or the symbol's fee on the house's fee type. */
export function groupFeeOf(sym: GroupedSymbol, houseFeeType: number, lots: Dec, margin: Dec, price: Dec, quoteToUsd: Dec): Dec {
  const c = sym.commission;
  if (!c) return feeOf(sym, houseFeeType, lots, margin);
  if (c.type === 'per_lot') return money(lots.mul(c.rate));
  if (c.type === 'per_million') return money(lots.mul(sym.contractSize).mul(price).mul(quoteToUsd).div(1_000_000).mul(c.rate));
  return money(margin.mul(c.rate).div(100));
}
