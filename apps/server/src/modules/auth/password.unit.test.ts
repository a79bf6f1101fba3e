import { afterEach, describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, PRODUCTION_SCRYPT_COST, usePasswordCost, verifyPassword } from './password.ts';

describe('password hashing', () => {
  afterEach(() => usePasswordCost(PRODUCTION_SCRYPT_COST.N));

  it('uses OWASP’s scrypt cost by default (N=2^17, r=8, p=1), stored with the hash', async () => {
    const stored = await hashPassword('Tr4ding-Desk-42');
    expect(stored).toMatch(/^scrypt\$131072\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(await verifyPassword('Tr4ding-Desk-42', stored)).toBe(true);
    expect(await verifyPassword('Tr4ding-Desk-43', stored)).toBe(false);
    expect(needsRehash(stored)).toBe(false);
  }, 60_000);

  it('verifies a hash made with older parameters and marks it for rehashing', async () => {
    usePasswordCost(16384);
    const old = await hashPassword('Tr4ding-Desk-42');
    usePasswordCost(PRODUCTION_SCRYPT_COST.N);
    expect(old.startsWith('scrypt$16384$8$1$')).toBe(true);
    expect(await verifyPassword('Tr4ding-Desk-42', old)).toBe(true);
    expect(needsRehash(old)).toBe(true);
  });
});
