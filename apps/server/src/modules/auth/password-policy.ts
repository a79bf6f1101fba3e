import fs from 'node:fs';
import path from 'node:path';
import { PASSWORD_MAX, PASSWORD_MIN, passwordLengthOk } from '@tp/contract/constants';
import { SERVER_SRC } from '../../paths.ts';

export { PASSWORD_MAX, PASSWORD_MIN };

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
  if (!passwordLengthOk(password)) return 'password_length';
  if (commonPasswords().has(password.toLowerCase())) return 'password_common';
  return null;
}
