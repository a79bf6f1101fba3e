/**
 * Operator commands (`npm run admin`, `npm run backup`, `npm run restore`): on PostgreSQL they
 * connect directly; on the embedded database they go through the running server when there is
 * one (it owns the database files), else they open DATA_DIR themselves.
 */
import path from 'node:path';
import { ConfigError, loadConfig } from '../config.ts';
import { CommandError, type CommandResult, restoreFrom, runCommand, USAGE } from '../ops/commands.ts';
import { sendControl } from '../ops/control.ts';
import { openDatabase } from '../platform/db/client.ts';

async function run(argv: string[]): Promise<CommandResult> {
  const config = loadConfig();
  const [command, file] = argv;
  if (!command) throw new CommandError(USAGE);
  if (command === 'restore') {
    if (!file) throw new CommandError(USAGE);
    if (!config.DATABASE_URL && (await sendControl(config.DATA_DIR, ['ping'])))
      throw new CommandError('The server is running on this DATA_DIR: stop it, then restore.');
    return restoreFrom(config, path.resolve(file));
  }
  // The server may run in another directory: a backup file is named from here.
  const args = command === 'backup' && file ? ['backup', path.resolve(file), ...argv.slice(2)] : argv;
  if (!config.DATABASE_URL) {
    const answer = await sendControl(config.DATA_DIR, args);
    if (answer) return answer;
  }
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR, poolSize: 2 });
  try {
    return await runCommand(database, config, args);
  } finally {
    await database.close();
  }
}

run(process.argv.slice(2)).then(
  ({ code, out }) => {
    (code ? process.stderr : process.stdout).write(`${out}\n`);
    process.exit(code);
  },
  (err: unknown) => {
    const known =
      err instanceof CommandError || err instanceof ConfigError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    process.stderr.write(`${known ? (err as Error).message : (err as Error).stack}\n`);
    process.exit(known ? 2 : 1);
  },
);
