import type { ChangePreview, PendingChange } from '@tp/contract/schemas/admin';
import type { AppContext, AuthStaff } from '../../context.ts';
import { fail, forbidden, notFound } from '../../http/errors.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import {
  decidePendingChange,
  findListedChange,
  findPendingChange,
  insertPendingChange,
  type ListedChange,
  listPendingChanges,
  type PendingChangeRow,
} from './change-repository.ts';

export type ChangeKindName = 'symbol' | 'fees' | 'settings' | 'group' | 'reversal';

/** What applying a change did: the answer of a direct save, and the fields it sets as they were and became. */
export interface Applied<R = unknown> {
  result: R;
  target: string;
  label: string;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}

/**
 * One kind of money rule, as its service saves it. `apply` is the one way in: it checks the change
 * exactly as a direct save does, writes it and audits it in the caller's transaction; `settle` runs
 * after the commit (reloads, notifications). Both a direct save and an approval go through them.
 */
export interface ChangeKind<P = unknown, R = unknown> {
  apply(tx: DbOrTx, who: AuthStaff, payload: P): Promise<Applied<R>>;
  settle(payload: P): Promise<void>;
  preview(payload: P, before: Record<string, unknown>, after: Record<string, unknown>): Promise<ChangePreview>;
}

/** Thrown inside a transaction to roll it back after a dry run. */
class DryRun extends Error {}
/** Thrown inside an approval's transaction when the target no longer holds the values the proposal saw. */
class Stale extends Error {}

/** JSON with object keys sorted: the database's jsonb keeps its own key order, so values compare by content. */
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_key, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value,
  );
const asRecord = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' ? (v as Record<string, unknown>) : {});

/**
 * Four-eyes changes to money rules: with FOUR_EYES on, a save is a proposal (checked by a dry run of
 * the save, then stored with its diff); a second risk or admin member approves it (the save runs
 * then, checked again) or rejects it. Each step is audited with the diff.
 */
export class ChangeService {
  private readonly kinds = new Map<ChangeKindName, ChangeKind>();

  constructor(private readonly ctx: AppContext) {}

  get enabled(): boolean {
    return this.ctx.config.FOUR_EYES === 'on';
  }

  register<P, R>(name: ChangeKindName, kind: ChangeKind<P, R>) {
    this.kinds.set(name, kind as ChangeKind);
  }

  private kind(name: string): ChangeKind {
    const k = this.kinds.get(name as ChangeKindName);
    if (!k) throw new Error(`no change kind ${name}`);
    return k;
  }

  /** A direct save: apply and commit, then settle. */
  async save<P, R>(name: ChangeKindName, who: AuthStaff, payload: P): Promise<R> {
    const kind = this.kind(name);
    const applied = await this.ctx.db.transaction((tx) => kind.apply(tx, who, payload));
    await kind.settle(payload);
    return applied.result as R;
  }

  /** A save under four-eyes when it is on (answers the pending change's id), otherwise at once. */
  async saveOrPropose<P, R>(name: ChangeKindName, who: AuthStaff, payload: P): Promise<R | { pending_change_id: number }> {
    return this.enabled ? { pending_change_id: await this.propose(name, who, payload) } : this.save<P, R>(name, who, payload);
  }

  /** Checks the change by running its save and rolling it back, then stores it with what it would change. */
  async propose(name: ChangeKindName, who: AuthStaff, payload: unknown): Promise<number> {
    const kind = this.kind(name);
    let applied: Applied | undefined;
    try {
      await this.ctx.db.transaction(async (tx) => {
        applied = await kind.apply(tx, who, payload);
        throw new DryRun();
      });
    } catch (err) {
      if (!(err instanceof DryRun)) throw err;
    }
    const { target, before, after } = applied!;
    return this.ctx.db.transaction(async (tx) => {
      const id = await insertPendingChange(tx, {
        kind: name,
        target,
        payload,
        diff: { label: applied!.label, before, after },
        proposedBy: who.id,
      });
      await this.ctx.services.staff.audit(
        tx,
        who,
        'change.propose',
        { type: 'change', id },
        { kind: name, target, ...before },
        { kind: name, target, ...after },
      );
      return id;
    });
  }

  async approve(who: AuthStaff, id: number): Promise<PendingChange> {
    const row = await this.pending(id, who, 'approve');
    const kind = this.kind(row.kind);
    const diff = asRecord(row.diff);
    try {
      await this.ctx.db.transaction(async (tx) => {
        // Decided first, so that two approvals of one change cannot both apply it.
        if (!(await decidePendingChange(tx, id, 'approved', who.id))) throw fail('admin.change_decided');
        const applied = await kind.apply(tx, who, row.payload);
        if (canonical(applied.before) !== canonical(diff.before)) throw new Stale();
        await this.ctx.services.staff.audit(
          tx,
          who,
          'change.approve',
          { type: 'change', id },
          { kind: row.kind, target: row.target, ...asRecord(diff.before) },
          { kind: row.kind, target: row.target, ...asRecord(diff.after) },
        );
      });
    } catch (err) {
      if (!(err instanceof Stale)) throw err;
      await this.ctx.db.transaction(async (tx) => {
        await decidePendingChange(tx, id, 'superseded', who.id);
        await this.ctx.services.staff.audit(tx, who, 'change.supersede', { type: 'change', id }, diff.before ?? null, diff.after ?? null);
      });
      throw fail('admin.change_superseded');
    }
    await kind.settle(row.payload);
    return this.find(id);
  }

  async reject(who: AuthStaff, id: number, reason: string): Promise<PendingChange> {
    const row = await this.pending(id, who, 'reject');
    const diff = asRecord(row.diff);
    await this.ctx.db.transaction(async (tx) => {
      if (!(await decidePendingChange(tx, id, 'rejected', who.id, reason))) throw fail('admin.change_decided');
      await this.ctx.services.staff.audit(
        tx,
        who,
        'change.reject',
        { type: 'change', id },
        { kind: row.kind, target: row.target, ...asRecord(diff.before) },
        { kind: row.kind, target: row.target, ...asRecord(diff.after), ...(reason ? { reason } : {}) },
      );
    });
    return this.find(id);
  }

  /** Pending changes first, oldest first (the queue), then decided ones, newest first; pending ones previewed now. */
  async list(page: number, limit: number): Promise<{ data: PendingChange[]; total: number }> {
    const { rows, total } = await listPendingChanges(this.ctx.db, page, limit);
    const data: PendingChange[] = [];
    for (const r of rows) data.push(await this.view(r));
    return { data, total };
  }

  private async find(id: number): Promise<PendingChange> {
    const row = await findListedChange(this.ctx.db, id);
    if (!row) throw notFound();
    return this.view(row);
  }

  /** A pending change a member other than its proposer may decide. */
  private async pending(id: number, who: AuthStaff, action: 'approve' | 'reject'): Promise<PendingChangeRow> {
    const row = await findPendingChange(this.ctx.db, id);
    if (!row) throw notFound();
    if (row.status !== 'pending') throw fail('admin.change_decided');
    // A proposer may withdraw their own change by rejecting it, never approve it.
    if (action === 'approve' && row.proposedBy === who.id) throw forbidden('admin.change_own');
    return row;
  }

  private async view({ change: c, proposer, decider }: ListedChange): Promise<PendingChange> {
    const diff = asRecord(c.diff);
    const before = asRecord(diff.before);
    const after = asRecord(diff.after);
    let preview: ChangePreview | null = null;
    // A preview is a help to the approver: one that cannot be made now leaves the queue readable.
    if (c.status === 'pending')
      preview = await this.kind(c.kind)
        .preview(c.payload, before, after)
        .catch((err: unknown) => {
          this.ctx.log.error({ err, changeId: c.id }, 'change preview failed');
          return null;
        });
    return {
      id: c.id,
      kind: c.kind as ChangeKindName,
      target: c.target,
      target_label: typeof diff.label === 'string' ? diff.label : c.target,
      before,
      after,
      proposed_by: c.proposedBy,
      proposer_email: proposer,
      created_at: c.createdAt.toISOString(),
      status: c.status as PendingChange['status'],
      decided_by: c.decidedBy,
      decider_email: decider,
      decided_at: c.decidedAt?.toISOString() ?? '',
      reason: c.reason ?? '',
      preview,
    };
  }
}
