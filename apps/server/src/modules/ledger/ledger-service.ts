import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { D, type Dec, type DecInput, dec, moneyStr } from '@tp/contract/decimal';
import type { AppContext } from '../../context.ts';
import {
  type Db,
  type DbOrTx,
  type PreparedCall,
  type RawRow,
  type Tx,
  inlineSql,
  preparedCall,
  preparedCalls,
  queryRaw,
  statementTexts,
} from '../../platform/db/client.ts';
import { pagedEntries } from './read-model.ts';
import { ledgerAccounts } from './schema.ts';

/**
 * A user's accounts: 'cash' (balance) and 'locked' (margin), and for a partner 'commission' (commission
 * earned and not yet paid out: the house's payable to the partner, never part of the trading balance).
 */
export type UserAccountKind = 'cash' | 'locked' | 'commission';
export const HOUSE_ACCOUNT_KINDS = [
  'fees',
  'counterparty',
  'deposit_clearing',
  'withdraw_clearing',
  'payouts',
  'writeoff',
  'demo_funding',
  'adjustment',
  'swaps',
] as const;
export type HouseAccountKind = (typeof HOUSE_ACCOUNT_KINDS)[number];
/**
 * Each house account is split into this many rows: a posting uses the shard of its user
 * (userId mod HOUSE_SHARDS), so two users' money movements rarely wait on the same house row.
 * The house's balance is the sum of its shards.
 */
export const HOUSE_SHARDS = 16;

/** A user's ledger accounts, locked in id order (every lock of accounts takes them in that order). */
const lockUserAccounts = preparedCall(
  'ledger_lock_user',
  'select id, kind, is_demo, balance::text as balance from ledger_accounts where user_id = $1 order by id for update',
);

const lockUsersText = (condition: string) =>
  `select id, user_id, kind, is_demo, balance::text as balance from ledger_accounts where ${condition} order by id for update`;
/** Past this many users (a partners' run, not an order group), one statement with an array: planned each time. */
const LOCK_LIST_MAX = 32;
const lockManyUsers = preparedCall('ledger_lock_users_many', lockUsersText('user_id = any($1::int[])'));
const lockUsersOf = preparedCalls();

/**
 * Several users' ledger accounts, locked in id order (group commit). One statement per number of
 * users, with a parameter each: PostgreSQL plans `user_id = any($1)` of an array again on every
 * call (its plan for an array of unknown length never looks cheaper than one for the given array;
 * measured: 111 µs of planning per call), while a list of n parameters keeps one plan.
 */
function lockUsersAccounts(userIds: number[]): PreparedCall {
  const n = userIds.length;
  if (n > LOCK_LIST_MAX) return lockManyUsers(userIds);
  const list = () => `user_id in (${userIds.map((_, i) => `$${i + 1}`).join(', ')})`;
  return lockUsersOf(`ledger_lock_users_${n}`, () => lockUsersText(list()))(...userIds);
}

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
  /**
   * The caller's own guarded update already makes this happen once: a repeated key is a fault
   * (DuplicatePostingError, the caller's transaction rolls back) and the post is one statement.
   */
  duplicateIsError?: boolean;
  /** User cash may go below zero inside this transaction (stop-out before negative balance protection). */
  allowNegativeCash?: boolean;
  /**
   * A statement that causes this posting (e.g. the order's insert or its guarded close), sent in
   * the same statement as the posting: one round trip for both. It must return exactly one row,
   * handed back as `lead`; should it return none, the posting's rows were written anyway, so
   * LeadNotWrittenError is thrown and the caller's transaction must roll back. Needs
   * `duplicateIsError`.
   */
  lead?: LeadStatement;
}

/** SQL text with its own parameters ($1…), and a key naming its shape (the same key, the same text). */
export interface LeadStatement {
  key: string;
  text: string;
  params: unknown[];
  /**
   * The lead may find nothing to write (e.g. a close guarded by a version another transaction
   * moved on): then the posting writes nothing either, and post answers { missed: true }.
   */
  mayMiss?: boolean;
}

/** The lead statement of a post wrote no row (its posting must not stand: roll back). */
export class LeadNotWrittenError extends Error {
  constructor(readonly key: string) {
    super(`ledger: the statement ${key} of a posting wrote nothing`);
  }
}

/** Remembered user account ids (two per user); the map starts over when it reaches this size. */
const USER_ACCOUNT_CACHE_SIZE = 200_000;

const rowsOf = <T>(result: unknown): T[] => (result as { rows?: T[] }).rows ?? (result as T[]);

/** The transaction row, its five parameters numbered from `first`. */
const txInsert = (first: number) => `insert into ledger_transactions (kind, is_demo, ref_type, ref_id, idem_key)
  values (${[0, 1, 2, 3, 4].map((i) => `$${first + i}`).join(', ')}) on conflict (idem_key) do nothing returning id`;
const TX_INSERT = txInsert(1);
/** The transaction row only if `condition` holds. */
const txInsertIf = (first: number, condition: string) => `insert into ledger_transactions (kind, is_demo, ref_type, ref_id, idem_key)
  select $${first}::text, $${first + 1}::boolean, $${first + 2}::text, $${first + 3}::text, $${first + 4}::text where ${condition}
  on conflict (idem_key) do nothing returning id`;
const LOCK_HOUSE_ROWS = 'select id from ledger_accounts where id = any($1::int[]) order by id for update';

/** `($6::int, $7::numeric, …), (…)`: `rows` rows of one typed parameter per type, numbered from `first`. */
function valuesList(rows: number, first: number, types: string[]): string {
  return Array.from({ length: rows }, (_, r) => `(${types.map((type, c) => `$${first + r * types.length + c}::${type}`).join(', ')})`).join(
    ', ',
  );
}

const ENTRY_TYPES = ['int', 'numeric', 'text', 'text'];
const DELTA_TYPES = ['int', 'numeric'];
/**
 * The balance update never refers to the transaction row's CTE: a row re-checked after a
 * concurrent update would be skipped by such a condition. A duplicate key is caught from the
 * answer instead, before the transaction can commit.
 */
const balanceMoves = (
  accounts: number,
  first: number,
  onlyIf = '',
) => `u as (update ledger_accounts a set balance = a.balance + d.delta from (values ${valuesList(accounts, first, DELTA_TYPES)}) as d(id, delta)
  where a.id = d.id and a.id in (${accountIdParams(accounts, first)})${onlyIf} returning a.id, a.balance::text as balance)`;
/**
 * The account ids of the balance moves again, as a list the primary key is searched by: joined to
 * the VALUES alone, the planner scans the whole accounts table while it is small or not analysed
 * (measured with one connection: 0.36 ms per order statement before, 0.28 ms after, with 688 accounts),
 * and that scan grows with the table.
 */
const accountIdParams = (accounts: number, first: number) =>
  Array.from({ length: accounts }, (_, r) => `$${first + r * DELTA_TYPES.length}::int`).join(', ');
/**
 * The condition of a posting that stands only if its lead wrote its row. An uncorrelated EXISTS is
 * an InitPlan: evaluated once, before any row is updated, and its value is kept when a house row is
 * re-checked after a concurrent update (the ledger test holds a house row while such a post waits).
 */
const LEAD_WROTE = 'exists (select 1 from o)';
const BALANCES = `(select json_agg(json_build_object('id', u.id, 'balance', u.balance)) from u) as balances`;

/** Statement texts by shape (entries, accounts). */
const shaped = statementTexts();

/**
 * Transaction row, entries and balance moves in one statement (parameters: the transaction's 5, 4
 * per entry, 2 per account), after the lead statement's own parameters when there is one: then the
 * answer is the lead's row, with the posting's figures beside it (no row when the lead wrote none).
 */
export function postStatement(entries: number, accounts: number, lead?: LeadStatement): string {
  const skip = lead?.params.length ?? 0;
  const mayMiss = Boolean(lead?.mayMiss);
  return shaped(`post:${entries}:${accounts}:${lead?.key ?? ''}:${skip}:${mayMiss}`, () => {
    const first = skip + 1;
    const entryValues = valuesList(entries, first + 5, ENTRY_TYPES);
    const txRow = mayMiss ? txInsertIf(first, LEAD_WROTE) : txInsert(first);
    const post = `t as (${txRow}),
  e as (insert into ledger_entries (tx_id, account_id, amount, type, memo)
    select t.id, v.account_id, v.amount, v.type, v.memo from t, (values ${entryValues}) as v(account_id, amount, type, memo)),
  ${balanceMoves(accounts, first + 5 + entries * ENTRY_TYPES.length, mayMiss ? ` and ${LEAD_WROTE}` : '')}`;
    const figures = `(select id from t) as tx_id, ${BALANCES}`;
    return lead ? `with o as (${lead.text}),\n  ${post}\n  select o.*, ${figures} from o` : `with ${post}\n  select ${figures}`;
  });
}

/** Entries and balance moves of a transaction row written before ($1 its id). */
function entriesStatement(entries: number, accounts: number): string {
  return shaped(`entries:${entries}:${accounts}`, () => {
    const entryValues = valuesList(entries, 2, ENTRY_TYPES);
    return `with e as (insert into ledger_entries (tx_id, account_id, amount, type, memo)
    select $1::bigint, v.account_id, v.amount, v.type, v.memo from (values ${entryValues}) as v(account_id, amount, type, memo)),
  ${balanceMoves(accounts, 2 + entries * ENTRY_TYPES.length)}
  select ${BALANCES}`;
  });
}

export class InsufficientFundsError extends Error {
  constructor(readonly accountId: number) {
    super('insufficient funds');
  }
}

export class UnbalancedPostingError extends Error {}

/** A key posted before, where the caller's own guard should have made that impossible. */
export class DuplicatePostingError extends Error {
  constructor(readonly idemKey: string | undefined) {
    super(`ledger: ${idemKey} posted twice`);
  }
}

/** Told of every posting that moved a user's balances, inside its transaction (the user's rows stay locked until it ends). */
export type BalancesMovedListener = (userId: number, isDemo: boolean, tx: Tx) => void | Promise<void>;

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
  private readonly userAccounts = new Map<string, { id: number; isDemo: boolean }>();
  private readonly movedListeners = new Set<BalancesMovedListener>();

  constructor(private readonly ctx: AppContext) {}

  /**
   * Reports the users whose balances a posting moved, whoever posted it (trading, funding, staff,
   * swaps). The listener runs inside the posting's transaction (and may write in it): the posting's balance update
   * holds the user's rows until the commit, so work that locks them reads the committed balances.
   */
  onBalancesMoved(listener: BalancesMovedListener): () => void {
    this.movedListeners.add(listener);
    return () => this.movedListeners.delete(listener);
  }

  /**
   * Writes the transaction row, its entries and the balance changes, each account moving once by
   * the sum of its postings. A duplicate idempotency key changes nothing and answers
   * { duplicate: true }; with `duplicateIsError` it throws instead (the caller's transaction must
   * then roll back) and the whole post takes a single round trip.
   */
  async post(tx: Tx, spec: PostSpec): Promise<{ txId: number; lead?: RawRow } | { duplicate: true } | { missed: true }> {
    const sum = spec.postings.reduce((acc, p) => acc.plus(dec(p.amount)), new D(0));
    if (!sum.isZero()) throw new UnbalancedPostingError(`postings of ${spec.kind} sum to ${sum.toString()}`);
    const nonZero = spec.postings.filter((p) => !dec(p.amount).isZero());
    const refId = spec.refId === undefined ? null : String(spec.refId);
    const txParams = [spec.kind, spec.isDemo, spec.refType ?? null, refId, spec.idemKey ?? null];
    const { lead } = spec;
    if (lead && !spec.duplicateIsError) throw new Error('ledger: a lead statement needs duplicateIsError');
    let leadRow: RawRow | undefined;
    if (lead && !nonZero.length) {
      [leadRow] = await queryRaw(tx, lead.text, lead.params);
      if (!leadRow && lead.mayMiss) return { missed: true };
      if (!leadRow) throw new LeadNotWrittenError(lead.key);
    }
    if (!nonZero.length) {
      const [row] = await queryRaw(tx, TX_INSERT, txParams);
      if (!row && spec.duplicateIsError) throw new DuplicatePostingError(spec.idemKey);
      if (!row) return { duplicate: true };
      this.ctx.metrics.ledgerPosted(spec.kind);
      return { txId: Number(row.id), lead: leadRow };
    }

    const owner = spec.postings.find((p) => 'userId' in p.account)?.account as { userId: number } | undefined;
    const shard = owner ? owner.userId % HOUSE_SHARDS : 0;
    const entries: { accountId: number; p: Posting }[] = [];
    for (const p of nonZero) entries.push({ accountId: await this.accountId(tx, p.account, spec.isDemo, shard), p });
    const deltas = new Map<number, { delta: Dec; mayGoNegative: boolean; house: boolean }>();
    for (const { accountId, p } of entries) {
      const isUser = 'userId' in p.account;
      const cash = isUser && (p.account as { kind: string }).kind === 'cash';
      const current = deltas.get(accountId);
      deltas.set(accountId, {
        delta: (current?.delta ?? new D(0)).plus(dec(p.amount)),
        mayGoNegative: !isUser || (cash && Boolean(spec.allowNegativeCash)),
        house: !isUser,
      });
    }
    // Two shared (house) rows in one post: lock them in id order first, so two such posts never
    // wait on each other in a cycle. A user's own rows are already locked by lockUser.
    const house = [...deltas.keys()].filter((id) => deltas.get(id)!.house).sort((a, b) => a - b);
    if (house.length > 1) await queryRaw(tx, LOCK_HOUSE_ROWS, [house]);

    const entryParams = entries.flatMap(({ accountId, p }) => [accountId, moneyStr(p.amount), p.type, p.memo ?? '']);
    const deltaParams = [...deltas].flatMap(([accountId, d]) => [accountId, moneyStr(d.delta)]);
    let txId: number;
    let result: RawRow | undefined;
    if (spec.duplicateIsError) {
      const params = [...(lead?.params ?? []), ...txParams, ...entryParams, ...deltaParams];
      [result] = await queryRaw(tx, postStatement(entries.length, deltas.size, lead), params);
      // A lead that may miss wrote nothing, and so did the posting.
      if (lead?.mayMiss && !result) return { missed: true };
      if (lead && !result) throw new LeadNotWrittenError(lead.key);
      if (!result || result.tx_id === null) throw new DuplicatePostingError(spec.idemKey);
      leadRow = lead ? result : undefined;
      txId = Number(result.tx_id);
    } else {
      const [row] = await queryRaw(tx, TX_INSERT, txParams);
      if (!row) return { duplicate: true };
      txId = Number(row.id);
      [result] = await queryRaw(tx, entriesStatement(entries.length, deltas.size), [txId, ...entryParams, ...deltaParams]);
    }
    const raw = (result?.balances ?? []) as { id: number; balance: string }[] | string;
    const balances = typeof raw === 'string' ? (JSON.parse(raw) as { id: number; balance: string }[]) : raw;
    if (balances.length !== deltas.size)
      throw new Error(`ledger: ${deltas.size - balances.length} account rows of ${spec.kind} were not updated`);
    for (const { id, balance } of balances) {
      if (!deltas.get(id)!.mayGoNegative && dec(balance).isNegative()) throw new InsufficientFundsError(id);
    }
    this.ctx.metrics.ledgerPosted(spec.kind);
    if (this.movedListeners.size) {
      const users = new Set(entries.flatMap(({ p }) => ('userId' in p.account ? [p.account.userId] : [])));
      for (const userId of users) for (const listener of this.movedListeners) await listener(userId, spec.isDemo, tx);
    }
    return { txId, lead: leadRow };
  }

  /**
   * Creates the house accounts (demo and real) and remembers their ids. Runs at start, outside any
   * transaction, so a remembered id always names a committed row: an id taken from a transaction
   * that had not committed yet would be invisible to the others, and gone if it rolled back.
   */
  async openHouseAccounts(db: Db = this.ctx.db): Promise<void> {
    await db
      .insert(ledgerAccounts)
      .values(
        HOUSE_ACCOUNT_KINDS.flatMap((kind) =>
          [false, true].flatMap((isDemo) => Array.from({ length: HOUSE_SHARDS }, (_, shard) => ({ userId: null, kind, isDemo, shard }))),
        ),
      )
      .onConflictDoNothing();
    const rows = await db
      .select({ id: ledgerAccounts.id, kind: ledgerAccounts.kind, isDemo: ledgerAccounts.isDemo, shard: ledgerAccounts.shard })
      .from(ledgerAccounts)
      .where(isNull(ledgerAccounts.userId));
    for (const row of rows) this.houseIds.set(`${row.kind}:${row.isDemo}:${row.shard}`, row.id);
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
      .select({ id: ledgerAccounts.id, kind: ledgerAccounts.kind, isDemo: ledgerAccounts.isDemo, balance: ledgerAccounts.balance })
      .from(ledgerAccounts)
      .where(eq(ledgerAccounts.userId, userId))
      .orderBy(ledgerAccounts.id)
      .for('update');
    for (const row of rows) this.rememberUserAccount(userId, row);
    return toBalances(rows);
  }

  /**
   * A transaction that starts by locking the user's accounts, as lockUser does. The lock goes to
   * the database together with BEGIN where it allows it, and so do `reads` (SQL texts with no
   * parameters, e.g. the user's open positions): they run under the lock, and `fn` gets their rows,
   * one list per text.
   */
  withLockedUser<T>(
    userId: number,
    fn: (tx: Tx, balances: UserBalances, reads: RawRow[][]) => Promise<T>,
    reads: PreparedCall[] = [],
  ): Promise<T> {
    const run = this.ctx.transactionWith;
    if (!run) {
      return this.ctx.db.transaction(async (tx) => {
        const balances = await this.lockUser(tx, userId);
        const rows: RawRow[][] = [];
        for (const read of reads) rows.push(rowsOf<RawRow>(await tx.execute(sql.raw(inlineSql(read)))));
        return fn(tx, balances, rows);
      });
    }
    // The id is written into the statement as a literal: lockUserAccounts refuses anything but a safe integer.
    return run([lockUserAccounts(userId), ...reads], (tx, [rows, ...readRows]) => {
      const accounts = rows!.map((r) => ({
        id: Number(r.id),
        kind: String(r.kind),
        isDemo: Boolean(r.is_demo),
        balance: String(r.balance),
      }));
      for (const row of accounts) this.rememberUserAccount(userId, row);
      return fn(tx, toBalances(accounts), readRows);
    });
  }

  /**
   * One transaction that starts by locking several users' accounts at once (in account id order,
   * as every single-user lock does, so the two kinds never wait on each other in a cycle), with
   * `reads` in the same round trip, as withLockedUser. For group commit: several users' money
   * movements share one commit.
   */
  withLockedUsers<T>(
    userIds: number[],
    fn: (tx: Tx, balances: Map<number, UserBalances>, reads: RawRow[][]) => Promise<T>,
    reads: PreparedCall[] = [],
  ): Promise<T> {
    // Refuses anything but safe integers, before any transaction starts.
    const lock = lockUsersAccounts(userIds);
    const toMap = (rows: RawRow[]) => {
      const byUser = new Map<number, { id: number; kind: string; isDemo: boolean; balance: string }[]>();
      for (const r of rows) {
        const userId = Number(r.user_id);
        const row = { id: Number(r.id), kind: String(r.kind), isDemo: Boolean(r.is_demo), balance: String(r.balance) };
        this.rememberUserAccount(userId, row);
        byUser.set(userId, [...(byUser.get(userId) ?? []), row]);
      }
      return new Map(userIds.map((id) => [id, toBalances(byUser.get(id) ?? [])]));
    };
    const run = this.ctx.transactionWith;
    if (!run) {
      return this.ctx.db.transaction(async (tx) => {
        const balances = toMap(rowsOf<RawRow>(await tx.execute(sql.raw(inlineSql(lock)))));
        const rows: RawRow[][] = [];
        for (const read of reads) rows.push(rowsOf<RawRow>(await tx.execute(sql.raw(inlineSql(read)))));
        return fn(tx, balances, rows);
      });
    }
    return run([lock, ...reads], (tx, [rows, ...readRows]) => fn(tx, toMap(rows ?? []), readRows));
  }

  async balances(db: DbOrTx, userId: number): Promise<UserBalances> {
    const rows = await db
      .select({ kind: ledgerAccounts.kind, balance: ledgerAccounts.balance })
      .from(ledgerAccounts)
      .where(eq(ledgerAccounts.userId, userId));
    return toBalances(rows);
  }

  /**
   * True when the house wrote off a loss of the user after the transaction posted with `idemKey`
   * (negative balance protection), e.g. since a withdrawal was requested.
   */
  async writtenOffSince(db: DbOrTx, userId: number, idemKey: string): Promise<boolean> {
    const rows = await queryRaw(
      db,
      `select 1 from ledger_transactions w where w.kind = 'writeoff' and w.ref_type = 'user' and w.ref_id = $1
      and w.id > coalesce((select id from ledger_transactions where idem_key = $2), 0) limit 1`,
      [String(userId), idemKey],
    );
    return rows.length > 0;
  }

  /** The user's cash entries, newest first (the account log of forexChange). */
  cashEntries(db: DbOrTx, userId: number, page: number, limit: number) {
    return pagedEntries(db, and(eq(ledgerAccounts.userId, userId), eq(ledgerAccounts.kind, 'cash')), page, limit);
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

  /** Account rows are never deleted nor moved between users, so their ids can be remembered. */
  private rememberUserAccount(userId: number, row: { id: number; kind: string; isDemo: boolean }): void {
    if (this.userAccounts.size >= USER_ACCOUNT_CACHE_SIZE) this.userAccounts.clear();
    this.userAccounts.set(`${userId}:${row.kind}`, { id: row.id, isDemo: row.isDemo });
  }

  private async accountId(db: DbOrTx, ref: AccountRef, isDemo: boolean, shard: number): Promise<number> {
    if ('userId' in ref) {
      const row =
        this.userAccounts.get(`${ref.userId}:${ref.kind}`) ??
        (
          await db
            .select({ id: ledgerAccounts.id, isDemo: ledgerAccounts.isDemo })
            .from(ledgerAccounts)
            .where(and(eq(ledgerAccounts.userId, ref.userId), eq(ledgerAccounts.kind, ref.kind)))
            .limit(1)
        )[0];
      if (row) {
        if (row.isDemo !== isDemo) throw new Error(`ledger: demo and real money never share a transaction (user ${ref.userId})`);
        this.rememberUserAccount(ref.userId, { ...row, kind: ref.kind });
        return row.id;
      }
      await this.openUserAccounts(db, ref.userId, isDemo);
      if (ref.kind === 'commission')
        await db.insert(ledgerAccounts).values({ userId: ref.userId, kind: ref.kind, isDemo }).onConflictDoNothing();
      return this.accountId(db, ref, isDemo, shard);
    }
    const id = this.houseIds.get(`${ref.house}:${isDemo}:${shard}`);
    if (!id) throw new Error(`ledger: house account ${ref.house} (${isDemo ? 'demo' : 'real'}, shard ${shard}) was not opened at start`);
    return id;
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

/** Proves the books: every transaction sums to zero, balances equal their entries, no user balance below zero (cash only while margin is locked), demo and real apart. */
export async function auditLedger(db: Db): Promise<AuditReport> {
  const problems: string[] = [];
  const rows = rowsOf;
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
  // Cash may be below zero after a realised loss, but only while margin is still locked (negative
  // balance protection, on unless the setting says '0', writes it off once nothing is locked).
  const negative = rows<{ id: number; balance: string }>(
    await db.execute(sql`select a.id, a.balance::text as balance from ledger_accounts a
      where a.user_id is not null and a.balance < 0 and (a.kind <> 'cash'
        or (coalesce((select value from settings where key = 'negative_balance_protection'), '1') = '1'
          and not exists (select 1 from ledger_accounts l where l.user_id = a.user_id and l.kind = 'locked' and l.balance > 0)))
      limit 20`),
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
