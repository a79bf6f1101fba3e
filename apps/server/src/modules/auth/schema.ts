import { sql } from 'drizzle-orm';
import { bigserial, boolean, index, integer, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';

/** The auth module's tables: only the auth module reads or writes them (other modules go through its service). */

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    uid: text('uid').notNull().unique(),
    email: text('email'),
    mobile: text('mobile'),
    areaId: integer('area_id'),
    passwordHash: text('password_hash'),
    isDemo: boolean('is_demo').notNull().default(false),
    /** The account group (account_groups, trading module): demo users in the demo group, real ones in a real group. */
    groupId: integer('group_id').notNull(),
    demoId: text('demo_id').unique(),
    inviteCode: text('invite_code').notNull().unique(),
    invitedBy: integer('invited_by'),
    /** 1 active, 0 disabled by staff. */
    status: smallint('status').notNull().default(1),
    rankingOptOut: boolean('ranking_opt_out').notNull().default(false),
    displayName: text('display_name'),
    /** Optional two-factor sign-in (real accounts): the secret while set up, on once confirmed with a code. */
    totpSecret: text('totp_secret'),
    totpEnabled: boolean('totp_enabled').notNull().default(false),
    /** The last accepted TOTP time step: a code is accepted once (RFC 6238 section 5.2). */
    totpLastStep: integer('totp_last_step'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('users_email_uq').on(sql`lower(${t.email})`), uniqueIndex('users_mobile_uq').on(t.areaId, t.mobile)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Trader sessions carry user_id; staff sessions carry staff_id. */
    userId: integer('user_id'),
    staffId: integer('staff_id'),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_staff_idx').on(t.staffId)],
);

export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: serial('id').primaryKey(),
    channel: text('channel').notNull(),
    destination: text('destination').notNull(),
    /** 1 register, 2 reset. */
    purpose: smallint('purpose').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: smallint('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('verification_codes_dest_idx').on(t.destination, t.purpose)],
);

export const captchas = pgTable('captchas', {
  id: text('id').primaryKey(),
  answerHash: text('answer_hash').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

export const areaCodes = pgTable('area_codes', {
  id: serial('id').primaryKey(),
  /** ISO 3166-1 alpha-2 country code. */
  code: text('code').notNull().unique(),
  /** Dialling prefix, e.g. +852. */
  globalCode: text('global_code').notNull(),
  name: text('name').notNull(),
});

/**
 * API keys for bots. The key a user is shown once is `tpk_<id>_<secret>`; only the SHA-256 of the
 * secret is kept (secret_hash) for the `Authorization: ApiKey` form. The signed form needs the secret
 * itself on the server: it is never stored, but derived again when needed from secret_salt (random, per
 * key) and the server's API-key master secret (see api-key-service.ts).
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull(),
    name: text('name').notNull(),
    scopes: text('scopes').array().notNull(),
    ipAllow: text('ip_allow')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    secretHash: text('secret_hash').notNull(),
    secretSalt: text('secret_salt').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('api_keys_user_idx').on(t.userId)],
);
