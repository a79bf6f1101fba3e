import { describe, expect, it } from 'vitest';
import { apiKeyList } from './endpoints/auth.ts';
import { userSearch } from './endpoints/admin.ts';
import { getBalance, submit } from './endpoints/trading.ts';
import { ApiCallError, createClient, signRequest } from './sdk.ts';

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/** A fetch that records each request and answers the given envelopes in turn. */
function recorder(...answers: unknown[]) {
  const sent: Sent[] = [];
  const fake = (async (url: string, init: RequestInit) => {
    sent.push({ url, method: init.method!, headers: init.headers as Record<string, string>, body: init.body as string | undefined });
    return new Response(JSON.stringify(answers.shift()), { headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
  return { sent, fake };
}

describe('SDK client', () => {
  const secret = 'Zq3_x-9bYpLm0AaQw2Ee4Rr6Tt8Uu1Ii3Oo5Pp7Ss9K';

  it('signs each call with the key id and secret; the secret is never sent', async () => {
    const { sent, fake } = recorder(
      { code: 1, msg: 'ok', data: { balance: '10.00', lock_balance: '0.00' } },
      { code: 1, msg: 'ok', data: {} },
    );
    const client = createClient({ baseUrl: 'http://broker.test/', keyId: 7, secret, fetch: fake, lang: 'ar' });
    const balance = await client.call(getBalance);
    expect(balance.balance).toBe('10.00');
    await client.call(submit, { forex_id: 3, type: 1, cont: '0.01', status: 1, multiple: 10 });

    const [get, post] = sent as [Sent, Sent];
    expect(get).toMatchObject({ url: 'http://broker.test/v1/api/main/wallet/getBalance', method: 'GET', body: undefined });
    expect(get.headers).toMatchObject({ 'x-api-key': '7', lang: 'ar' });
    const ts = get.headers['x-api-timestamp']!;
    expect(Math.abs(Number(ts) - Date.now())).toBeLessThan(5_000);
    expect(get.headers['x-api-signature']).toBe(
      await signRequest({ secret, timestamp: ts, method: 'GET', path: '/v1/api/main/wallet/getBalance', body: '' }),
    );

    expect(post).toMatchObject({ url: 'http://broker.test/v1/api/forex/submit', method: 'POST' });
    expect(JSON.parse(post.body!)).toEqual({ forex_id: 3, type: 1, cont: '0.01', status: 1, multiple: 10 });
    expect(post.headers['content-type']).toBe('application/json');
    expect(post.headers['x-api-signature']).toBe(
      await signRequest({
        secret,
        timestamp: post.headers['x-api-timestamp']!,
        method: 'POST',
        path: '/v1/api/forex/submit',
        body: post.body!,
      }),
    );
    expect(JSON.stringify(sent)).not.toContain(secret);
  });

  it('is typed by the endpoint declarations', () => {
    const client = createClient({ baseUrl: 'http://broker.test' });
    // Compile-time only: the input and the answer come from the endpoint's zod schemas.
    const typed = async () => {
      // @ts-expect-error: submit has no field `symbol`
      await client.call(submit, { symbol: 'BTCUSDT' });
      // @ts-expect-error: getBalance takes no input
      await client.call(getBalance, { page: 1 });
      const order = await client.call(submit, { forex_id: 3, type: 1, cont: '0.01', status: 1 });
      const id: number = order.Id;
      // @ts-expect-error: an order has no field `nope`
      return [id, order.nope];
    };
    expect(typeof typed).toBe('function');
  });

  it('sends a bearer key or a session token as given, and a GET input as its query', async () => {
    const { sent, fake } = recorder({ code: 1, msg: 'ok', data: [] }, { code: 1, msg: 'ok', data: [] });
    await createClient({ baseUrl: 'http://broker.test', apiKey: `tpk_7_${secret}`, fetch: fake }).call(apiKeyList);
    await createClient({ baseUrl: 'http://broker.test', token: 'session-token', fetch: fake }).call(userSearch, { q: 'a b,c' });
    expect(sent[0]!.headers.authorization).toBe(`ApiKey tpk_7_${secret}`);
    expect(sent[1]!.headers.authorization).toBe('session-token');
    expect(sent[1]!.url).toBe('http://broker.test/api/admin/users/search?q=a+b%2Cc');
  });

  it("throws the server's code and message on a refusal", async () => {
    const { fake } = recorder({ code: 1003, msg: 'This API key cannot do that', data: null });
    const client = createClient({ baseUrl: 'http://broker.test', apiKey: `tpk_7_${secret}`, fetch: fake });
    const error = await client.call(getBalance).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiCallError);
    expect(error).toMatchObject({ code: 1003, message: 'This API key cannot do that' });
  });

  it('logs the socket in, subscribes, and hands out the parsed pushes of the topic only', async () => {
    const sent: string[] = [];
    const servers: FakeSocket[] = [];
    class FakeSocket extends EventTarget {
      readonly OPEN = 1;
      readyState = 0;
      constructor(readonly url: string) {
        super();
        servers.push(this);
        queueMicrotask(() => {
          this.readyState = 1;
          this.dispatchEvent(new Event('open'));
        });
      }
      send(text: string) {
        sent.push(text);
        const m = JSON.parse(text) as { type: string; params: string };
        if (m.type === 'login') this.push({ type: 'login_result', code: 1, msg: 'ok' });
        if (m.type === 'sub') this.push({ type: 'sub_result', code: 1, msg: 'ok', topic: m.params });
      }
      push(message: unknown) {
        queueMicrotask(() => this.dispatchEvent(new MessageEvent('message', { data: JSON.stringify(message) })));
      }
      close() {
        this.readyState = 3;
        this.dispatchEvent(new Event('close'));
      }
    }
    const client = createClient({
      baseUrl: 'https://broker.test',
      apiKey: `tpk_7_${secret}`,
      WebSocket: FakeSocket as unknown as typeof WebSocket,
    });
    const socket = await client.socket();
    const server = servers[0]!;
    expect(server.url).toBe('wss://broker.test/v1/ws?lang=en');
    const closes = await socket.subscribe('FOREX_CLOSED');
    expect(sent.map((t) => JSON.parse(t))).toEqual([
      { type: 'login', params: `ApiKey tpk_7_${secret}` },
      { type: 'sub', params: 'FOREX_CLOSED' },
    ]);
    server.push({ type: 'FOREX_TRADE', To: 1 }); // another topic (and not even a valid one): not handed out
    server.push({ type: 'FOREX_CLOSED', id: 'not a list' }); // not the declared shape: dropped
    server.push({ type: 'FOREX_CLOSED', id: [4], seq: 1 });
    server.push({ type: 'FOREX_CLOSED', id: [5], seq: 2 });
    expect(await closes.next((m) => m.id.includes(5))).toEqual({ type: 'FOREX_CLOSED', id: [5], seq: 2 });
    const rest: number[][] = [];
    setTimeout(() => socket.close(), 20);
    for await (const m of closes) rest.push(m.id);
    expect(rest).toEqual([[4]]);
    await expect(closes.next()).rejects.toThrow('closed');
  });
});
