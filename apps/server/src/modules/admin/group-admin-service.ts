import type { AccountGroup, AdminUser, ChangePreview, GroupSave } from '@tp/contract/schemas/admin';
import { dec } from '@tp/contract/decimal';
import type { AppContext, AuthStaff } from '../../context.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import type { Applied, ChangeKind } from './change-service.ts';
import type { UserAdminService } from './user-admin-service.ts';
import { EMPTY_PREVIEW } from './change-preview.ts';

/** The account-wide fields of a group, for the diff (symbols as one field). */
const FIELDS = [
  'name',
  'kind',
  'profile',
  'margin_call_level',
  'stop_out_level',
  'stop_out_policy',
  'max_open_positions',
  'max_pending_orders',
  'negative_balance_protection',
  'book',
  'is_default',
  'symbols',
] as const;

const pick = (g: AccountGroup | null, keys: string[]) =>
  Object.fromEntries(
    keys.map((k) => [k, g === null ? null : k === 'symbols' ? g.symbols.map(({ code: _code, ...s }) => s) : g[k as keyof AccountGroup]]),
  );

/**
 * Account groups in the back office: list, save (a four-eyes change of kind `group`) and moving a
 * user to another group. The terms themselves are the trading module's (`trading.groups`).
 */
export class GroupAdminService {
  constructor(
    private readonly ctx: AppContext,
    private readonly users: UserAdminService,
  ) {}

  private get groups() {
    return this.ctx.services.trading.groups;
  }

  list(): Promise<AccountGroup[]> {
    return this.groups.list();
  }

  save(who: AuthStaff, input: GroupSave): Promise<AccountGroup | { pending_change_id: number }> {
    return this.ctx.services.changes.saveOrPropose<GroupSave, AccountGroup>('group', who, input);
  }

  /** The group kind of change: one way in for a direct save and an approval. */
  readonly groupChange: ChangeKind<GroupSave, AccountGroup> = {
    apply: (tx, who, input) => this.apply(tx, who, input),
    settle: () => this.groups.settle(),
    preview: (input, _before, after) => this.preview(input, after),
  };

  private async apply(tx: DbOrTx, who: AuthStaff, input: GroupSave): Promise<Applied<AccountGroup>> {
    const { before, after } = await this.groups.apply(tx, input);
    await this.ctx.services.staff.audit(tx, who, before ? 'group.save' : 'group.create', { type: 'group', id: after.id }, before, after);
    const keys = FIELDS.filter((k) => input[k as keyof GroupSave] !== undefined);
    return {
      result: after,
      target: before ? String(before.id) : 'new',
      label: after.name,
      before: before ? pick(before, keys) : {},
      after: pick(after, keys),
    };
  }

  /** Per symbol, a 1-lot round trip under the terms in force and the proposed ones; members' open accounts at or below the proposed stop-out and margin-call levels now. */
  private async preview(input: GroupSave, after: Record<string, unknown>): Promise<ChangePreview> {
    const empty = EMPTY_PREVIEW;
    if (!input.id) return empty;
    const symbols = this.groups.symbolPreview(input.id, input);
    const level = (k: 'stop_out_level' | 'margin_call_level') =>
      typeof after[k] === 'string' && after[k] !== '' ? (after[k] as string) : undefined;
    const stopOut = level('stop_out_level');
    const marginCall = level('margin_call_level');
    if (stopOut === undefined && marginCall === undefined) return { ...empty, symbols };
    const accounts = await this.ctx.services.trading.openAccounts();
    const groupsOf = await this.groups.groupIdsOf(accounts.map((a) => a.userId));
    const members = accounts.filter((a) => groupsOf.get(a.userId) === input.id);
    const below = (l: string | undefined) =>
      l === undefined ? null : members.filter((a) => a.figures.riskRate !== null && a.figures.riskRate.lte(dec(l))).length;
    return { ...empty, symbols, below_stop_out: below(stopOut), below_margin_call: below(marginCall) };
  }

  /** Moves a user to another group of their kind; audited. Open positions keep their terms, the account is reviewed at once. */
  async setGroup(who: AuthStaff, userId: number, groupId: number): Promise<AdminUser> {
    const moved = await this.ctx.db.transaction(async (tx) => {
      const m = await this.groups.moveUser(tx, userId, groupId);
      await this.ctx.services.staff.audit(
        tx,
        who,
        'user.set_group',
        { type: 'user', id: userId },
        { group_id: m.from },
        { group_id: groupId },
      );
      return m;
    });
    await this.groups.moved(userId, moved.isDemo);
    return this.users.profile(userId);
  }
}
