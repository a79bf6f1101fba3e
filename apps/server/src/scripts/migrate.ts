/**
 * `npm run migrate` (the image's migrate job): applies this build's pending migrations and exits.
 * On PostgreSQL under an advisory lock, so a second one started meanwhile waits, then finds
 * nothing to do; servers started with MIGRATE_ON_START=false then only check the schema.
 */
import pg from 'pg';
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase, queryRaw } from '../platform/db/client.ts';
import { appliedMigration, latestMigration, migratePostgres, migrationsOf } from '../platform/db/migrate.ts';

async function run(): Promise<string> {
  const config = loadConfig();
  const all = migrationsOf();
  let applied: number;
  if (config.DATABASE_URL) {
    const pool = new pg.Pool({ connectionString: config.DATABASE_URL, max: 1 });
    pool.on('error', () => undefined);
    try {
      applied = await migratePostgres(pool);
    } finally {
      await pool.end();
    }
  } else {
    // The embedded database: one process at a time owns DATA_DIR (stop the server first).
    const before = await openDatabase({ dataDir: config.DATA_DIR, migrate: 'none' });
    const newest = await appliedMigration({ query: (text) => queryRaw(before.db, text, []).then((rows) => ({ rows })) }).finally(() =>
      before.close(),
    );
    applied = all.filter((m) => newest === null || m.when > newest).length;
    await (await openDatabase({ dataDir: config.DATA_DIR, migrate: 'apply' })).close();
  }
  const latest = latestMigration().tag;
  if (!applied) return `Migrations: nothing to do, the schema is at ${latest}.`;
  return `Migrations: applied ${applied} (${all
    .slice(-applied)
    .map((m) => m.tag)
    .join(', ')}), the schema is at ${latest}.`;
}

run().then(
  (out) => {
    process.stdout.write(`${out}\n`);
    process.exit(0);
  },
  (err: unknown) => {
    process.stderr.write(
      err instanceof ConfigError ? `${err.message}\n` : `Migrations failed: ${err instanceof Error ? err.message : String(err)}\n`,
    );
    process.exit(1);
  },
);
