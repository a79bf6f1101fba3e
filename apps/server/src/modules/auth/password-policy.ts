import fs from 'node:fs';
import path from 'node:path';
import { SERVER_SRC } from '../../paths.ts';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

let common: Set<string> | null = null;
const commonPasswords = (): Set<string> =>
  (common ??= new Set(
    fs
      .readFileSync(path.join(SERVER_SRC, 'modules/auth/common-passwords.txt'), 'utf8')
      .split('\n')
      .map((l) => l.trim().toLowerCase())
      .filter(Boolean),
  ));

/** The message key refusing a new password, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN || length > PASSWORD_MAX) return 'password_length';
  if (commonPasswords().has(password.toLowerCase())) return 'password_common';
  return null;
}
