import { randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { rateLimited } from '../../http/errors.ts';

type ScryptCost = { N: number; r: number; p: number };
const scryptRaw = promisify(scryptCb) as (pw: string, salt: Buffer, len: number, opts: ScryptCost & { maxmem: number }) => Promise<Buffer>;

/**
 * Every hash costs 128 MiB and a libuv thread for a fraction of a second, and anyone may ask for
 * one (a login with any e-mail): at most `running` at once on this server, `waiting` more queued in
 * arrival order; a request beyond both is refused with the rate-limit code at once.
 */
const hashSlots = { max: 4, queue: 32, running: 0, waiting: [] as (() => void)[] };

export function usePasswordConcurrency(max: number, queue: number): void {
  hashSlots.max = max;
  hashSlots.queue = queue;
}

/** Hashes now running and waiting (for tests and metrics). */
export const passwordHashLoad = () => ({ running: hashSlots.running, waiting: hashSlots.waiting.length });

async function scrypt(pw: string, salt: Buffer, len: number, opts: ScryptCost & { maxmem: number }): Promise<Buffer> {
  if (hashSlots.running >= hashSlots.max) {
    if (hashSlots.waiting.length >= hashSlots.queue) throw rateLimited();
    await new Promise<void>((resolve) => hashSlots.waiting.push(resolve));
  } else hashSlots.running++;
  try {
    return await scryptRaw(pw, salt, len, opts);
  } finally {
    // The slot passes straight to the next in line, so `running` never drops below what runs.
    const next = hashSlots.waiting.shift();
    if (next) next();
    else hashSlots.running--;
  }
}

/** OWASP's current recommendation for scrypt: N=2^17, r=8, p=1 (128 MiB per hash). */
export const PRODUCTION_SCRYPT_COST: Readonly<ScryptCost> = { N: 2 ** 17, r: 8, p: 1 };
const KEYLEN = 32;
let cost: ScryptCost = { ...PRODUCTION_SCRYPT_COST };

/** Lowers the cost for the test suite only (PASSWORD_SCRYPT_N with NODE_ENV=test); production keeps OWASP's. */
export function usePasswordCost(N: number): void {
  cost = { ...PRODUCTION_SCRYPT_COST, N };
}

const maxmem = (c: ScryptCost) => 256 * c.N * c.r + 16 * 1024 * 1024;

/** scrypt with a per-password random salt; the parameters travel with the hash. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password.normalize('NFKC'), salt, KEYLEN, { ...cost, maxmem: maxmem(cost) });
  return `scrypt$${cost.N}$${cost.r}$${cost.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  if (!stored) {
    // Same cost for unknown accounts, so timing does not reveal whether an account exists.
    await hashPassword(password);
    return false;
  }
  const [alg, n, r, p, salt, hash] = stored.split('$');
  if (alg !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const used = { N: Number(n), r: Number(r), p: Number(p) };
  const key = await scrypt(password.normalize('NFKC'), Buffer.from(salt, 'base64url'), expected.length, { ...used, maxmem: maxmem(used) });
  return timingSafeEqual(key, expected);
}

/** Whether a stored hash was made with other parameters than today's: it is replaced at the next successful login. */
export function needsRehash(stored: string | null): boolean {
  if (!stored) return false;
  const [, n, r, p] = stored.split('$');
  return Number(n) !== cost.N || Number(r) !== cost.r || Number(p) !== cost.p;
}
