import { bigserial, boolean, index, integer, jsonb, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { money, createdAt } from '../../platform/db/columns.ts';

/** The admin module's tables: only the admin module reads or writes them (other modules go through its service). */

export const staff = pgTable('staff', {
  id: serial('id').primaryKey(),
  email: text('email').notNull().unique(),
  name: text('name').notNull(),
  passwordHash: text('password_hash').notNull(),
  /** Any of admin, finance, risk, support, content. */
  roles: text('roles').array().notNull(),
  totpSecret: text('totp_secret'),
  totpEnabled: boolean('totp_enabled').notNull().default(false),
  /** The last accepted TOTP time step: a code is accepted once (RFC 6238 section 5.2). */
  totpLastStep: integer('totp_last_step'),
  status: smallint('status').notNull().default(1),
  createdAt: createdAt(),
});

/** One-time recovery codes of a staff member's two-factor sign-in, stored as SHA-256; each works once. */
export const staffRecoveryCodes = pgTable(
  'staff_recovery_codes',
  {
    id: serial('id').primaryKey(),
    staffId: integer('staff_id').notNull(),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('staff_recovery_codes_staff_idx').on(t.staffId)],
);

/** Append-only: a trigger in the migration refuses UPDATE and DELETE. */
export const staffAuditLog = pgTable('staff_audit_log', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  staffId: integer('staff_id').notNull(),
  action: text('action').notNull(),
  targetType: text('target_type'),
  targetId: text('target_id'),
  before: jsonb('before'),
  after: jsonb('after'),
  createdAt: createdAt(),
});

/** Staff balance adjustments: a client key names one adjustment of one user so a retried request never adjusts twice. */
export const balanceAdjustments = pgTable(
  'balance_adjustments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id').notNull(),
    key: text('key').notNull(),
    amount: money('amount').notNull(),
    reason: text('reason').notNull(),
    staffId: integer('staff_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('balance_adjustments_user_key_idx').on(t.userId, t.key)],
);

/**
 * Four-eyes changes to money rules: one staff member proposes, a second risk or admin member approves
 * (the change is applied then, checked as a direct save is) or rejects. `diff` holds each changed
 * field's value before and after as seen at the proposal; an approval finding another before is refused
 * and the change superseded.
 */
export const pendingChanges = pgTable(
  'pending_changes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** symbol, fees or settings. */
    kind: text('kind').notNull(),
    /** The symbol's id, or the setting keys the change touches. */
    target: text('target').notNull(),
    payload: jsonb('payload').notNull(),
    diff: jsonb('diff').notNull(),
    proposedBy: integer('proposed_by').notNull(),
    createdAt: createdAt(),
    /** pending, approved, rejected or superseded. */
    status: text('status').notNull().default('pending'),
    decidedBy: integer('decided_by'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    reason: text('reason'),
  },
  (t) => [index('pending_changes_status_idx').on(t.status, t.id)],
);
