/**
 * Every table, for the database client, seeding, ops tools, tests and benchmarks. Each module owns its
 * tables in modules/<name>/schema.ts; module code imports only its own schema and platform-schema.ts
 * (lint enforces it), never this file.
 */
export * from './platform-schema.ts';
export * from '../../modules/auth/schema.ts';
export * from '../../modules/admin/schema.ts';
export * from '../../modules/content/schema.ts';
export * from '../../modules/market/schema.ts';
export * from '../../modules/ledger/schema.ts';
export * from '../../modules/trading/db/schema.ts';
export * from '../../modules/identity/schema.ts';
export * from '../../modules/funding/schema.ts';
export * from '../../modules/support/schema.ts';
export * from '../../modules/web-push/schema.ts';
export * from '../../modules/partners/schema.ts';
export * from '../../modules/social/schema.ts';
