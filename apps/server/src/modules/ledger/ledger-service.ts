import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { D, type Dec, type DecInput, dec, moneyStr } from '@tp/contract/decimal';
import type { AppContext } from '../../context.ts';
import type { Db, DbOrTx, Tx } from '../../platform/db/client.ts';
import { ledgerAccounts, ledgerEntries, ledgerTransactions } from '../../platform/db/schema.ts';

export type UserAccountKind = 'cash' | 'locked';
export type HouseAccountKind = 'fees' | 'counterparty' | 'deposit_clearing' | 'withdraw_clearing' | 'payouts' | 'writeoff' | 'demo_funding' | 'adjustment';
export type AccountRef = { userId: number; kind: UserAccountKind } | { house: HouseAccountKind };

export interface Posting {
  account: AccountRef;
  amount: DecInput;
  /** Entry type for the account log, e.g. trade_fee, margin_lock, profit, deposit. */
  type: string;
  memo?: string;
}

export interface PostSpec {
  kind: string;
  isDemo: boolean;
  refType?: string;
  refId?: string | number;
  /** The same key never posts twice: a second attempt returns { duplicate: true } and changes nothing. */
  idemKey?: string;
  postings: Posting[];
  /** User cash may go below zero inside this transaction (stop-out before negative balance protection). */
  allowNegativeCash?: boolean;
}

export class InsufficientFundsError extends Error {
  constructor(readonly accountId: number) {
    super('insufficient funds');
  }
}

export class UnbalancedPostingError extends Error {}

export interface UserBalances {
  balance: Dec;
  lockBalance: Dec;
}

/**
 * The only code that changes money. Every change is a set of entries summing to zero, written
 * with its transaction row inside the caller's database transaction; balances on the account rows
 * move in the same statement set and can never go below zero for users.
 */
export class LedgerService {
  private readonly houseIds = new Map<string, number>();

  constructor(private readonly ctx: AppContext) {}

  async post(tx: Tx, spec: PostSpec): Promise<{ txId: number } | { duplicate: true }> {
    const sum = spec.postings.reduce((acc, p) => acc.plus(dec(p.amount)), new D(0));
    if (!sum.isZero()) throw new UnbalancedPostingError(`postings of ${spec.kind} sum to ${sum.toString()}`);
    const nonZero = spec.postings.filter((p) => !dec(p.amount).isZero());

    const [row] = await tx
      .insert(ledgerTransactions)
      .values({ kind: spec.kind, isDemo: spec.isDemo, refType: spec.refType, refId: spec.refId === undefined ? undefined : String(spec.refId), idemKey: spec.idemKey })
      .onConflictDoNothing({ target: ledgerTransactions.idemKey })
      .returning({ id: ledgerTransactions.id });
    if (!row) return { duplicate: true };

    const resolved = await Promise.all(nonZero.map(async (p) => ({ p, accountId: await this.accountId(tx, p.account, spec.isDemo) })));
    if (resolved.length) {
      await tx.insert(ledgerEntries).values(
        resolved.map(({ p, accountId }) => ({ txId: row.id, accountId, amount: moneyStr(p.amount), type: p.type, memo: p.memo ?? '' })),
      );
    }
    // Fixed order of row updates: concurrent transactions never wait on each other in a cycle.
    resolved.sort((a, b) => a.accountId - b.accountId);
    for (const { p, accountId } of resolved) {
      const [updated] = await tx
        .update(ledgerAccounts)
        .set({ balance: sql`${ledgerAccounts.balance} + ${moneyStr(p.amount)}` })
        .where(eq(ledgerAccounts.id, accountId))
        .returning({ balance: ledgerAccounts.balance });
      const isUser = 'userId' in p.account;
      const mayGoNegative = spec.allowNegativeCash && isUser && (p.account as { kind: string }).kind === 'cash';
      if (isUser && !mayGoNegative && dec(updated!.balance).isNegative()) throw new InsufficientFundsError(accountId);
    }
    return { txId: row.id };
  }

  /** Creates a user's cash and locked accounts (idempotent). */
  async openUserAccounts(db: DbOrTx, userId: number, isDemo: boolean): Promise<void> {
    await db
      .insert(ledgerAccounts)
      .values([
        { userId, kind: 'cash', isDemo },
        { userId, kind: 'locked', isDemo },
      ])
      .onConflictDoNothing();
  }

  /**
   * Locks the user's accounts for the rest of the transaction and returns the balances: two
   * concurrent money movements of one user run one after the other.
   */
  async lockUser(tx: Tx, userId: number): Promise<UserBalances> {
    const rows = await tx
      .select({ kind: ledgerAccounts.kind, balance: ledgerAccounts.balance })
      .from(ledgerAccounts)
      .where(eq(ledgerAccounts.userId, userId))
      .orderBy(ledgerAccounts.id)
      .for('update');
    return toBalances(rows);
  }

  async balances(db: DbOrTx, userId: number): Promise<UserBalances> {
    const rows = await db.select({ kind: ledgerAccounts.kind, balance: ledgerAccounts.balance }).from(ledgerAccounts).where(eq(ledgerAccounts.userId, userId));
    return toBalances(rows);
  }

  async balancesOf(db: DbOrTx, userIds: number[]): Promise<Map<number, UserBalances>> {
    const out = new Map<number, UserBalances>();
    if (!userIds.length) return out;
    const rows = await db
      .select({ userId: ledgerAccounts.userId, kind: ledgerAccounts.kind, balance: ledgerAccounts.balance })
      .from(ledgerAccounts)
      .where(inArray(ledgerAccounts.userId, userIds));
    for (const id of userIds) out.set(id, toBalances(rows.filter((r) => r.userId === id)));
    return out;
  }

  private async accountId(db: DbOrTx, ref: AccountRef, isDemo: boolean): Promise<number> {
    if ('userId' in ref) {
      const [row] = await db
        .select({ id: ledgerAccounts.id, isDemo: ledgerAccounts.isDemo })
        .from(ledgerAccounts)
        .where(and(eq(ledgerAccounts.userId, ref.userId), eq(ledgerAccounts.kind, ref.kind)))
        .limit(1);
      if (row) {
        if (row.isDemo !== isDemo) throw new Error(`ledger: demo and real money never share a transaction (user ${ref.userId})`);
        return row.id;
      }
      await this.openUserAccounts(db, ref.userId, isDemo);
      return this.accountId(db, ref, isDemo);
    }
    const key = `${ref.house}:${isDemo}`;
    const cached = this.houseIds.get(key);
    if (cached) return cached;
    await db.insert(ledgerAccounts).values({ userId: null, kind: ref.house, isDemo }).onConflictDoNothing();
    const [row] = await db
      .select({ id: ledgerAccounts.id })
      .from(ledgerAccounts)
      .where(and(isNull(ledgerAccounts.userId), eq(ledgerAccounts.kind, ref.house), eq(ledgerAccounts.isDemo, isDemo)))
      .limit(1);
    this.houseIds.set(key, row!.id);
    return row!.id;
  }
}

function toBalances(rows: { kind: string; balance: string }[]): UserBalances {
  return {
    balance: dec(rows.find((r) => r.kind === 'cash')?.balance ?? 0),
    lockBalance: dec(rows.find((r) => r.kind === 'locked')?.balance ?? 0),
  };
}

export interface AuditReport {
  ok: boolean;
  problems: string[];
  transactions: number;
  accounts: number;
}

/** Proves the books: every transaction sums to zero, balances equal their entries, no user balance below zero, demo and real apart. */
export async function auditLedger(db: Db): Promise<AuditReport> {
  const problems: string[] = [];
  const rows = <T>(r: unknown) => ((r as { rows?: T[] }).rows ?? (r as T[]));
  const unbalanced = rows<{ tx_id: number; s: string }>(
    await db.execute(sql`select tx_id, sum(amount)::text as s from ledger_entries group by tx_id having sum(amount) <> 0 limit 20`),
  );
  for (const r of unbalanced) problems.push(`transaction ${r.tx_id} sums to ${r.s}`);
  const drift = rows<{ id: number; balance: string; s: string }>(
    await db.execute(sql`select a.id, a.balance::text as balance, coalesce(e.s, 0)::text as s from ledger_accounts a
      left join (select account_id, sum(amount) as s from ledger_entries group by account_id) e on e.account_id = a.id
      where a.balance <> coalesce(e.s, 0) limit 20`),
  );
  for (const r of drift) problems.push(`account ${r.id} balance ${r.balance} but entries sum to ${r.s}`);
  const negative = rows<{ id: number; balance: string }>(
    await db.execute(sql`select id, balance::text as balance from ledger_accounts where user_id is not null and balance < 0 limit 20`),
  );
  for (const r of negative) problems.push(`user account ${r.id} is negative: ${r.balance}`);
  const mixed = rows<{ tx_id: number }>(
    await db.execute(sql`select distinct e.tx_id from ledger_entries e join ledger_accounts a on a.id = e.account_id
      join ledger_transactions t on t.id = e.tx_id where a.is_demo <> t.is_demo limit 20`),
  );
  for (const r of mixed) problems.push(`transaction ${r.tx_id} mixes demo and real money`);
  const [counts] = rows<{ t: number; a: number }>(
    await db.execute(sql`select (select count(*)::int from ledger_transactions) as t, (select count(*)::int from ledger_accounts) as a`),
  );
  return { ok: problems.length === 0, problems, transactions: Number(counts?.t ?? 0), accounts: Number(counts?.a ?? 0) };
}
