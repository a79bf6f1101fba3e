import { dec, money } from '@tp/contract/decimal';
import type { AccountGroup, ChangePreview, GroupSave, GroupSymbol } from '@tp/contract/schemas/admin';
import type { AppContext } from '../../../context.ts';
import { fail, invalid, notFound } from '../../../http/errors.ts';
import { BusChannels } from '../../../platform/bus-channels.ts';
import type { DbOrTx } from '../../../platform/db/client.ts';
import { findUserById, isUniqueViolation, setUserGroup, userGroupIds } from '../../auth/index.ts';
import type { TradingSettings } from '../admission/settings.ts';
import { type GroupedSymbol, closeFeeOf, groupFeeOf, groupMarginOf, groupedSymbol, symbolTermsOf } from '../admission/groups.ts';
import {
  clearDefaultGroup,
  findGroupRow,
  type GroupSymbolRow,
  type GroupTableRow,
  groupMemberCounts,
  groupSymbolRows,
  insertGroupRow,
  listGroupRows,
  replaceGroupSymbols,
  updateGroupRow,
} from '../db/group-repository.ts';
import { logBalanceMove } from '../db/repository.ts';

const num = (v: string | null) => (v === null ? null : dec(v).toString());

function symbolView(r: GroupSymbolRow, code: string): GroupSymbol {
  return {
    symbol_id: r.symbolId,
    code,
    enabled: r.enabled,
    spread_markup_points: r.spreadMarkupPoints,
    leverages: r.leverages,
    max_lots: num(r.maxLots),
    commission_type: r.commissionType as GroupSymbol['commission_type'],
    commission_rate: dec(r.commissionRate).toString(),
    swap_free: r.swapFree,
    swap_long: num(r.swapLong),
    swap_short: num(r.swapShort),
    deviation_points: r.deviationPoints,
    hedge_threshold_lots: num(r.hedgeThresholdLots),
    leverage_tiers: r.leverageTiers.map((t) => ({
      up_to_lots: t.up_to_lots === null ? null : dec(t.up_to_lots).toString(),
      leverage: t.leverage,
    })),
  };
}

/**
 * Account groups as staff manage them: the list, a save (checked, written, in the caller's
 * transaction: a direct save and a four-eyes approval are the same save), and moving a user.
 */
export class GroupService {
  constructor(
    private readonly ctx: AppContext,
    private readonly settings: TradingSettings,
    /** Looks at the account again at once (its margin level under the new group's levels). */
    private readonly review: (userId: number, isDemo: boolean) => void,
  ) {}

  async list(db: DbOrTx = this.ctx.db): Promise<AccountGroup[]> {
    const [groups, symbols, members] = await Promise.all([listGroupRows(db), groupSymbolRows(db), groupMemberCounts(db)]);
    return groups.map((g) => this.view(g, symbols, members));
  }

  async find(db: DbOrTx, id: number): Promise<AccountGroup | null> {
    const g = await findGroupRow(db, id);
    if (!g) return null;
    return this.view(g, await groupSymbolRows(db, id), await groupMemberCounts(db));
  }

  private view(g: GroupTableRow, symbols: GroupSymbolRow[], members: Map<number, number>): AccountGroup {
    const code = (id: number) => this.ctx.services.market.symbol(id)?.code ?? String(id);
    return {
      id: g.id,
      name: g.name,
      kind: g.kind as AccountGroup['kind'],
      profile: g.profile as AccountGroup['profile'],
      margin_call_level: g.marginCallLevel === null ? '' : dec(g.marginCallLevel).toString(),
      stop_out_level: g.stopOutLevel === null ? '' : dec(g.stopOutLevel).toString(),
      stop_out_policy: g.stopOutPolicy as AccountGroup['stop_out_policy'],
      max_open_positions: g.maxOpenPositions ?? 0,
      max_pending_orders: g.maxPendingOrders ?? 0,
      negative_balance_protection: g.negativeBalanceProtection,
      book: g.book as AccountGroup['book'],
      is_default: g.isDefault,
      version: g.version,
      members: members.get(g.id) ?? 0,
      symbols: symbols.filter((s) => s.groupId === g.id).map((s) => symbolView(s, code(s.symbolId))),
    };
  }

  /** Checks a save against the group as stored now and writes it (in the caller's transaction); the group before (null: created) and after. */
  async apply(tx: DbOrTx, input: GroupSave): Promise<{ before: AccountGroup | null; after: AccountGroup }> {
    const before = input.id ? await findGroupRow(tx, input.id, true) : undefined;
    if (input.id && !before) throw notFound();
    if (!before && (!input.name || !input.kind)) throw invalid('input_full');
    if (before && input.kind && input.kind !== before.kind) throw invalid('admin.group_kind_fixed');
    const beforeView = before ? await this.find(tx, before.id) : null;
    const kind = before?.kind ?? input.kind!;
    const values = {
      ...(input.name !== undefined ? { name: input.name.trim() } : {}),
      ...(input.profile !== undefined ? { profile: input.profile } : {}),
      ...(input.margin_call_level !== undefined ? { marginCallLevel: input.margin_call_level || null } : {}),
      ...(input.stop_out_level !== undefined ? { stopOutLevel: input.stop_out_level || null } : {}),
      ...(input.stop_out_policy !== undefined ? { stopOutPolicy: input.stop_out_policy } : {}),
      ...(input.max_open_positions !== undefined ? { maxOpenPositions: input.max_open_positions || null } : {}),
      ...(input.max_pending_orders !== undefined ? { maxPendingOrders: input.max_pending_orders || null } : {}),
      ...(input.negative_balance_protection !== undefined ? { negativeBalanceProtection: input.negative_balance_protection } : {}),
      ...(input.book !== undefined ? { book: input.book } : {}),
    };
    if (!before && !values.name) throw invalid('input_full');
    // The stop-out level below the margin-call level (the house's settings fill a group's blanks).
    const call = dec(values.marginCallLevel ?? (before ? before.marginCallLevel : null) ?? this.settings.marginCallLevel);
    const stop = dec(values.stopOutLevel ?? (before ? before.stopOutLevel : null) ?? this.settings.stopOutLevel);
    if (stop.gte(call)) throw invalid('admin.group_levels');
    if (input.is_default === false && before?.isDefault) throw invalid('admin.group_default_needed');
    if (input.is_default) await clearDefaultGroup(tx, kind);
    // An update (account-wide fields, symbols or both) makes one new version.
    let row: GroupTableRow;
    try {
      row = before
        ? await updateGroupRow(tx, before.id, { ...values, ...(input.is_default ? { isDefault: true } : {}) })
        : await insertGroupRow(tx, { ...values, name: values.name!, kind, isDefault: input.is_default ?? false });
    } catch (err) {
      if (isUniqueViolation(err, 'account_groups_name_uq')) throw fail('admin.group_name_taken');
      throw err;
    }
    if (input.symbols) {
      const seen = new Set<number>();
      for (const s of input.symbols) {
        if (seen.has(s.symbol_id)) throw invalid('admin.invalid_list');
        seen.add(s.symbol_id);
        if (!this.ctx.services.market.symbol(s.symbol_id)) throw invalid('admin.invalid_list');
        if (s.leverages.length > 20) throw invalid('admin.invalid_list');
        // Tiers ascending, one open-ended tier at most and last.
        const bounds = s.leverage_tiers.map((t) => t.up_to_lots);
        if (bounds.slice(0, -1).some((b) => b === null)) throw invalid('admin.invalid_list');
        for (let i = 1; i < bounds.length; i++) {
          const a = bounds[i - 1] ?? null;
          const b = bounds[i] ?? null;
          if (a !== null && b !== null && dec(b).lte(a)) throw invalid('admin.invalid_list');
        }
      }
      await replaceGroupSymbols(
        tx,
        row.id,
        input.symbols.map((s) => groupSymbolValues(row.id, s)),
      );
    }
    return { before: beforeView, after: (await this.find(tx, row.id))! };
  }

  /** After a committed save: every server reloads the groups with the trading settings. */
  async settle(): Promise<void> {
    await this.settings.reload(this.ctx.db);
    this.ctx.bus.publish(BusChannels.settingsChanged, { keys: ['account_groups'], values: {} });
  }

  /**
   * Moves a user to another group of their kind (in the caller's transaction): the move is in the
   * change log, so the engine reads the user's group again and reviews the account; their open
   * positions keep the terms they opened with.
   */
  async moveUser(tx: DbOrTx, userId: number, groupId: number): Promise<{ isDemo: boolean; from: number }> {
    const user = await findUserById(tx, userId);
    if (!user) throw notFound();
    const group = await findGroupRow(tx, groupId);
    if (!group) throw notFound();
    if (group.kind !== (user.isDemo ? 'demo' : 'real')) throw invalid('admin.group_kind_mismatch');
    await setUserGroup(tx, userId, groupId);
    await logBalanceMove(tx, userId);
    return { isDemo: user.isDemo, from: user.groupId };
  }

  /** After a committed move: this server's copy follows at once, and the account is reviewed on its new levels. */
  async moved(userId: number, isDemo: boolean): Promise<void> {
    await this.settings.groups.ensureUsers(this.ctx.db, [userId], 0, true);
    this.review(userId, isDemo);
  }

  /**
   * A proposed save of a group's per-symbol terms, symbol by symbol where they change: a 1-lot round
   * trip at the current mid and the lowest leverage offered, under the terms in force and under the
   * proposed ones (its margin, its commission on both sides, and what the spread markup costs).
   */
  symbolPreview(groupId: number, input: GroupSave): ChangePreview['symbols'] {
    const book = this.settings.groups;
    const group = book.group(groupId);
    if (!group || !input.symbols) return [];
    const market = this.ctx.services.market;
    const proposed = new Map(input.symbols.map((s) => [s.symbol_id, symbolTermsOf(groupSymbolValues(groupId, s))]));
    const ids = new Set([
      ...proposed.keys(),
      ...market
        .symbols()
        .filter((s) => book.symbolRow(groupId, s.id))
        .map((s) => s.id),
    ]);
    const rows: ChangePreview['symbols'] = [];
    for (const id of [...ids].sort((a, b) => a - b)) {
      const sym = market.symbol(id);
      if (!sym) continue;
      const before = groupedSymbol(group.profile, book.symbolRow(groupId, id), sym);
      const after = groupedSymbol(input.profile ?? group.profile, proposed.get(id), sym);
      const a = this.oneLot(before);
      const b = this.oneLot(after);
      if (JSON.stringify(a) === JSON.stringify(b)) continue;
      rows.push({
        id,
        code: sym.code,
        mid: market.quote(id)?.mid ?? '',
        leverage_before: a.leverage,
        leverage_after: b.leverage,
        fee_before: a.fee,
        fee_after: b.fee,
        margin_before: a.margin,
        margin_after: b.margin,
        spread_cost_before: a.spread,
        spread_cost_after: b.spread,
      });
    }
    return rows;
  }

  private oneLot(sym: GroupedSymbol): { leverage: number; fee: string; margin: string; spread: string } {
    const market = this.ctx.services.market;
    const leverage = Math.min(...(sym.leverages.length ? sym.leverages.map((l) => l.value) : [1]));
    const quote = market.quote(sym.id);
    if (!quote && sym.marginMode !== 2) return { leverage, fee: '', margin: '', spread: '' };
    const lot = dec(1);
    const rate = market.quoteToUsd(sym.id);
    const mid = dec(quote?.mid ?? 0);
    const margin = groupMarginOf(sym, lot, mid, leverage, rate);
    const open = groupFeeOf(sym, this.settings.tradeFeeType, lot, margin, mid, rate);
    const spread = sym.markup ? money(sym.markup.bid.plus(sym.markup.ask).mul(sym.contractSize).mul(rate)) : dec(0);
    // As the other previews of changes write amounts: at the money scale, without trailing zeros.
    return {
      leverage,
      fee: money(open.plus(closeFeeOf(sym, open))).toString(),
      margin: money(margin).toString(),
      spread: quote ? money(spread).toString() : '',
    };
  }

  /** The group ids of users (tests and views). */
  groupIdsOf(userIds: number[]): Promise<Map<number, number>> {
    return userGroupIds(this.ctx.db, userIds);
  }
}

/** A group's row of a symbol's terms, as a save writes it. */
export function groupSymbolValues(groupId: number, s: NonNullable<GroupSave['symbols']>[number]) {
  return {
    groupId,
    symbolId: s.symbol_id,
    enabled: s.enabled,
    spreadMarkupPoints: s.spread_markup_points,
    leverages: [...new Set(s.leverages)].sort((a, b) => a - b),
    maxLots: s.max_lots,
    commissionType: s.commission_type,
    commissionRate: s.commission_rate,
    swapFree: s.swap_free,
    swapLong: s.swap_long,
    swapShort: s.swap_short,
    deviationPoints: s.deviation_points,
    hedgeThresholdLots: s.hedge_threshold_lots,
    leverageTiers: s.leverage_tiers,
  };
}
