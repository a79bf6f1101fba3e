/**
 * `npm run audit`: proves the books of the configured database (DATABASE_URL, or the PGlite
 * database in DATA_DIR — stop the server first, PGlite allows one process at a time).
 * Prints the report; exits 1 when there is a problem, 2 when the configuration is invalid.
 */
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../platform/db/client.ts';
import { auditLedger } from '../modules/ledger/ledger-service.ts';

async function main(): Promise<number> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      return 2;
    }
    throw err;
  }
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR, poolSize: 2 });
  try {
    const report = await auditLedger(database.db);
    const where = database.kind === 'postgres' ? 'PostgreSQL' : `PGlite in ${config.DATA_DIR}`;
    process.stdout.write(`Ledger audit of ${where}: ${report.transactions} transactions, ${report.accounts} accounts\n`);
    if (report.ok) {
      process.stdout.write(
        'OK: every transaction sums to zero, every balance equals its entries, no user balance below zero, demo and real apart.\n',
      );
      return 0;
    }
    process.stdout.write(`${report.problems.length} problem(s):\n${report.problems.map((p) => `  - ${p}`).join('\n')}\n`);
    return 1;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`Audit failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
