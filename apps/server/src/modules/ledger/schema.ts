import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, pgTable, serial, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { money, createdAt } from '../../platform/db/columns.ts';

/** The ledger module's tables: only the ledger module reads or writes them (other modules go through its service). */

/**
 * A money account. User accounts: kind 'cash' (balance) and 'locked' (lock_balance).
 * House accounts (user_id null): fees, counterparty, deposit_clearing, withdraw_clearing, writeoff, demo_funding.
 */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id'),
    kind: text('kind').notNull(),
    isDemo: boolean('is_demo').notNull(),
    balance: money('balance').notNull().default('0'),
    /**
     * House accounts come in shards (a user's postings go to shard userId mod the shard count), so
     * concurrent money movements of different users rarely wait on one house row. 0 for users.
     */
    shard: smallint('shard').notNull().default(0),
  },
  (t) => [
    uniqueIndex('ledger_accounts_user_uq')
      .on(t.userId, t.kind)
      .where(sql`${t.userId} is not null`),
    uniqueIndex('ledger_accounts_house_shard_uq')
      .on(t.kind, t.isDemo, t.shard)
      .where(sql`${t.userId} is null`),
  ],
);

export const ledgerTransactions = pgTable('ledger_transactions', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  kind: text('kind').notNull(),
  refType: text('ref_type'),
  refId: text('ref_id'),
  /** Makes a money movement happen once: the same key never writes a second transaction. */
  idemKey: text('idem_key').unique(),
  isDemo: boolean('is_demo').notNull(),
  createdAt: createdAt(),
});

export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    txId: bigint('tx_id', { mode: 'number' }).notNull(),
    accountId: integer('account_id').notNull(),
    amount: money('amount').notNull(),
    /** Entry type shown in the account log (e.g. open_fee, margin_lock, profit, deposit). */
    type: text('type').notNull(),
    memo: text('memo').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [index('ledger_entries_account_idx').on(t.accountId, t.id), index('ledger_entries_tx_idx').on(t.txId)],
);
