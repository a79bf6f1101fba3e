import { signRequest, splitApiKey } from '@tp/contract/sdk';
import { describe, expect, it } from 'vitest';
import { apiKeySignature } from './api-key-service.ts';

/** The SDK's signature is the one the server verifies, for the calls a bot makes. */
describe('API key request signing: SDK and server agree', () => {
  const secret = 'Zq3_x-9bYpLm0AaQw2Ee4Rr6Tt8Uu1Ii3Oo5Pp7Ss9K';
  const cases = [
    { method: 'GET', path: '/v1/api/main/wallet/getBalance', body: '' },
    { method: 'get', path: '/v1/api/forex/myDeal?page=1&limit=20&status=1', body: '' },
    { method: 'POST', path: '/v1/api/forex/submit', body: JSON.stringify({ forex_id: 3, type: 1, cont: '0.01', status: 1 }) },
    { method: 'POST', path: '/v1/api/forex/close', body: JSON.stringify({ id: 12, note: 'clôture — 平仓' }) },
  ];

  it.each(cases)('$method $path', async ({ method, path, body }) => {
    const timestamp = '1764220000123';
    const fromSdk = await signRequest({ secret, timestamp, method, path, body });
    expect(fromSdk).toMatch(/^[0-9a-f]{64}$/);
    expect(fromSdk).toBe(apiKeySignature(secret, timestamp, method, path, Buffer.from(body)).toString('hex'));
  });

  it('changes with every signed part', async () => {
    const base = { secret, timestamp: '1764220000123', method: 'POST', path: '/v1/api/forex/close', body: '{"id":1}' };
    const signed = await signRequest(base);
    for (const change of [
      { timestamp: '1764220000124' },
      { method: 'GET' },
      { path: '/v1/api/forex/close?x=1' },
      { body: '{"id":2}' },
      { secret: `${secret.slice(1)}A` },
    ]) {
      expect(await signRequest({ ...base, ...change })).not.toBe(signed);
    }
  });

  it('splits a key into the id and the secret that signs', () => {
    expect(splitApiKey(`tpk_42_${secret}`)).toEqual({ keyId: '42', secret });
    expect(() => splitApiKey('tpk_0_short')).toThrow();
  });
});
