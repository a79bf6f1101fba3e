import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { and, eq, isNull } from 'drizzle-orm';
import { STAFF_ROLES } from '@tp/contract/schemas/admin';
import type { Config } from '../config.ts';
import { hashPassword } from '../modules/auth/password.ts';
import { passwordProblem } from '../modules/auth/password-policy.ts';
import { type Database, openDatabase, pgliteDir } from '../platform/db/client.ts';
import { sessions, staff } from '../platform/db/schema.ts';

/** What an operator command prints, and its exit code. */
export interface CommandResult {
  code: number;
  out: string;
}

export const USAGE = `Usage:
  npm run admin -- reset-password <email> [--password <new>] [--disable-totp]
  npm run admin -- create-staff <email> --roles admin,finance,risk,support,content [--name <name>] [--password <pw>]
  npm run admin -- disable-staff <email>
  npm run backup [-- <file>]
  npm run restore -- <file>          (embedded database, with the server stopped)`;

export class CommandError extends Error {}

const ok = (...lines: string[]): CommandResult => ({ code: 0, out: lines.join('\n') });
const newPassword = () => randomBytes(12).toString('base64url');

function chosenPassword(given: string | undefined): { password: string; generated: boolean } {
  if (given === undefined) return { password: newPassword(), generated: true };
  const problem = passwordProblem(given);
  if (problem) throw new CommandError(`The password is refused (${problem}): 8 to 128 characters, not a common password.`);
  return { password: given, generated: false };
}

const passwordLine = (p: { password: string; generated: boolean }) =>
  p.generated ? `  New password (shown once, keep it in a password manager): ${p.password}` : '  Password: as given.';

async function staffByEmail(db: Database['db'], email: string) {
  const [row] = await db.select().from(staff).where(eq(staff.email, email.trim().toLowerCase())).limit(1);
  if (!row) throw new CommandError(`No staff account with the email ${email}.`);
  return row;
}

const revokeSessions = (db: Database['db'], staffId: number) =>
  db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.staffId, staffId), isNull(sessions.revokedAt)));

export function defaultBackupFile(config: Config): string {
  return path.resolve(config.DATA_DIR, 'backups', `backup-${new Date().toISOString().replace(/[:.]/g, '-')}.tar.gz`);
}

/** Writes a consistent copy of the embedded database (see Database.dumpDataDir), whole or not at all. */
export async function backupTo(database: Database, file: string): Promise<void> {
  if (!database.dumpDataDir) throw new CommandError('DATABASE_URL is set: back up PostgreSQL with pg_dump (see the README, Operations).');
  const tarball = await database.dumpDataDir();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.partial`;
  fs.writeFileSync(tmp, Buffer.from(await tarball.arrayBuffer()), { mode: 0o600 });
  fs.renameSync(tmp, file);
}

/** Runs one operator command on an open database (in the running server, or opened by the command line). */
export async function runCommand(database: Database, config: Config, argv: string[]): Promise<CommandResult> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      password: { type: 'string' },
      roles: { type: 'string' },
      name: { type: 'string' },
      'disable-totp': { type: 'boolean' },
    },
  });
  const [command, target] = positionals;
  const { db } = database;
  switch (command) {
    case 'reset-password': {
      if (!target) throw new CommandError(USAGE);
      const row = await staffByEmail(db, target);
      const chosen = chosenPassword(values.password);
      const totpOff = values['disable-totp'] ? { totpEnabled: false, totpSecret: null } : {};
      await db
        .update(staff)
        .set({ passwordHash: await hashPassword(chosen.password), status: 1, ...totpOff })
        .where(eq(staff.id, row.id));
      await revokeSessions(db, row.id);
      return ok(
        `Password reset for ${row.email}; the account is enabled and its sessions are signed out.`,
        passwordLine(chosen),
        ...(values['disable-totp'] ? ['  Two-factor sign-in is off: enrol again in the back office.'] : []),
      );
    }
    case 'create-staff': {
      const roles = (values.roles ?? '')
        .split(',')
        .map((r) => r.trim())
        .filter(Boolean);
      const unknown = roles.filter((r) => !(STAFF_ROLES as readonly string[]).includes(r));
      if (!target || !roles.length || unknown.length) throw new CommandError(`Roles: one or more of ${STAFF_ROLES.join(', ')}.\n${USAGE}`);
      const chosen = chosenPassword(values.password);
      const email = target.trim().toLowerCase();
      const [row] = await db
        .insert(staff)
        .values({ email, name: values.name ?? email.split('@')[0]!, passwordHash: await hashPassword(chosen.password), roles })
        .onConflictDoNothing()
        .returning({ id: staff.id });
      if (!row) throw new CommandError(`A staff account with the email ${email} already exists (reset-password changes its password).`);
      return ok(`Staff account created: ${email} (${roles.join(', ')}).`, passwordLine(chosen));
    }
    case 'disable-staff': {
      if (!target) throw new CommandError(USAGE);
      const row = await staffByEmail(db, target);
      await db.update(staff).set({ status: 0 }).where(eq(staff.id, row.id));
      await revokeSessions(db, row.id);
      return ok(`Staff account ${row.email} disabled and signed out (reset-password enables it again).`);
    }
    case 'backup': {
      const file = path.resolve(target ?? defaultBackupFile(config));
      await backupTo(database, file);
      return ok(`Backup written: ${file}`, `Restore it with the server stopped: npm run restore -- ${file}`);
    }
    default:
      throw new CommandError(USAGE);
  }
}

/**
 * Replaces the embedded database with a backup (the server must be stopped). The current data
 * directory is kept beside it as pglite.before-restore-<time>; migrations newer than the backup run.
 */
export async function restoreFrom(config: Config, file: string): Promise<CommandResult> {
  if (config.DATABASE_URL) throw new CommandError('DATABASE_URL is set: restore PostgreSQL with pg_restore (see the README, Operations).');
  if (!fs.existsSync(file)) throw new CommandError(`No such file: ${file}`);
  const dir = pgliteDir(config.DATA_DIR);
  const kept = `${dir}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  const hadData = fs.existsSync(dir) && fs.readdirSync(dir).length > 0;
  if (hadData) fs.renameSync(dir, kept);
  const database = await openDatabase({ dataDir: config.DATA_DIR, loadDataDir: new Blob([fs.readFileSync(file)]) });
  await database.close();
  return ok(
    `Restored ${file} into ${dir}.`,
    ...(hadData ? [`  The previous data directory is kept in ${kept} (delete it when satisfied).`] : []),
  );
}
