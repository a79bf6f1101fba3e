import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseServerMessage, topicOfMessage, type ParsedJsonMessage } from './push-parse.ts';
import { SERVER_MESSAGE_SHAPES } from './push-shapes.ts';
import { clientMessages, type JsonServerMessageName, pushMessage, type ServerMessageOf, serverMessages } from './pushes.ts';
import { README_BEGIN, README_END, renderReadmeTable, strictSchema as strict, wireShapeOf } from './socket-docs.ts';

const order = {
  Id: 7,
  UserId: 3,
  ForexId: 1,
  OrderType: 1,
  Status: 1,
  Quantity: '0.1',
  Multiple: 10,
  OriginPrice: '94000.00',
  Price: '93510.00',
  UpdatePrice: '93600.00',
  TargetProfitPrice: '0',
  TargetLossPrice: '0',
  CautionMoney: '935.100000',
  TradeFee: '0.300000',
  FactProfits: '9.000000',
  Swap: '0',
  ClosedType: 0,
  CancelReason: '',
  PendingType: 'buy_limit',
  ExpireTime: 0,
  TrailingPoints: 0,
  ForexContNum: '1',
  CreateTime: 1_700_000_000,
  CompleteTime: 0,
  CreateTimeHandler: '2023-11-14 22:13:20',
  CompleteTimeHandler: '',
  ForexTradeLists: { Id: 1, Code: 'BTCUSDT', ShowCode: 'BTC/USDT', PricePrecision: 2, Logo: '' },
} as const;
const chat = { id: 5, sender: 'staff', body: 'Hello', image_url: null, created_at: '2026-01-01T00:00:00.000Z' } as const;

/** One message of every JSON kind, built the way the server builds them. */
const samples: { [N in JsonServerMessageName]: ServerMessageOf<N> } = {
  error: pushMessage('error', { code: 1001, msg: 'The message could not be read' }),
  login_result: pushMessage('login_result', { code: 1, msg: 'Logged in' }),
  logout_result: pushMessage('logout_result', { code: 1, msg: 'Logged out' }),
  sub_result: pushMessage('sub_result', { code: 1, msg: 'Subscribed', topic: 'DAY_MARKET' }),
  unsub_result: pushMessage('unsub_result', { code: 1, msg: 'Unsubscribed', topic: 'DAY_MARKET' }),
  session_ended: pushMessage('session_ended', { reason: 'logout', msg: 'You have logged out.' }),
  DAY_MARKET: pushMessage('DAY_MARKET', {
    symbol: 'BTCUSDT',
    time: 1_700_000_000_000,
    quotation: {
      id: 1,
      forex_id: 1,
      open: '95000.00',
      high: '96000.00',
      low: '94000.00',
      close: '95500.00',
      change: '0.53',
      volume: '12.5',
      amount: '1193750.00',
      bid: '95490.00',
      ask: '95510.00',
      time: 1_700_000_000_000,
      market_status: 1,
      market_status_reason: null,
    },
  }),
  KLINE: pushMessage('KLINE', {
    symbol: 'BTCUSDT',
    forex_id: 1,
    time: 1_700_000_000_000,
    kline: {
      Id: 1_699_999_980_000,
      Time: 1_699_999_980_000,
      Open: '95000.00',
      High: '95600.00',
      Low: '94900.00',
      Close: '95500.00',
      Volume: '1',
      Amount: '95500.00',
      Change: '0.53',
      Period: '1min',
      Code: 'BTCUSDT',
      ForexId: 1,
    },
  }),
  MARKET_DEPTH: pushMessage('MARKET_DEPTH', {
    symbol: 'BTCUSDT',
    forex_id: 1,
    time: 1_700_000_000_000,
    bids: [['95490.00', '10']],
    asks: [['95510.00', '10']],
  }),
  FOREX_TRADE: pushMessage('FOREX_TRADE', {
    To: 3,
    HazardRate: '10000.00',
    CautionMoneyAll: '935.100000',
    ProfitsTotal: '9.000000',
    OriginCautionMoneyTotal: '935.100000',
    TransOrder: [order],
    balance: '99000.000000',
    lock_balance: '935.100000',
    equity: '99009.000000',
    available_prepayment: '98073.900000',
    prepayment_ratio: '10588.06',
    margin_call: 0,
  }),
  FOREX_CLOSED: pushMessage('FOREX_CLOSED', { id: [7, 8] }),
  NOTICE: pushMessage('NOTICE', {
    kind: 'take_profit',
    order_id: 7,
    forex_id: 1,
    symbol: 'BTC/USDT',
    order_type: 1,
    lots: '0.1',
    price: '96000.00',
    profit: '249.000000',
    time: 1_700_000_000,
  }),
  ALERT: pushMessage('ALERT', {
    id: 2,
    forex_id: 1,
    symbol: 'BTC/USDT',
    side: 'bid',
    direction: 1,
    price: '96000.00',
    email: 0,
    created_at: 1_700_000_000,
    fired_at: 1_700_000_100,
    fired_price: '96000.00',
  }),
  CHAT: pushMessage('CHAT', { message: chat }),
  SUPPORT: pushMessage('SUPPORT', { user_id: 3, message: chat }),
};

const names = Object.keys(samples) as JsonServerMessageName[];

describe('socket messages declared in the contract', () => {
  it('has a sample of every JSON message, each valid under its strict schema', () => {
    const declared = Object.entries(serverMessages)
      .filter(([, d]) => d.frame === 'json')
      .map(([name]) => name);
    expect(names.sort()).toEqual(declared.sort());
    for (const name of names) expect(strict(serverMessages[name].schema).safeParse(samples[name]).error, name).toBeUndefined();
  });

  it('builds type first, then the body in the order given', () => {
    expect(Object.keys(samples.session_ended)).toEqual(['type', 'reason', 'msg']);
    expect(samples.SUPPORT.type).toBe('CHAT');
  });

  it('keeps the generated shapes (push-shapes.ts) equal to the schemas: run `npm run docs:socket` after changing pushes.ts', () => {
    expect(SERVER_MESSAGE_SHAPES).toEqual(
      Object.entries(serverMessages).map(([name, d]) => ({
        name,
        type: d.type,
        frame: d.frame,
        topic: d.topic,
        shape: wireShapeOf(d.schema),
      })),
    );
  });

  it('parses every message to the declaration it was built from, and its topic', () => {
    for (const name of names) {
      const parsed = parseServerMessage(JSON.stringify(samples[name]));
      expect(parsed?.name, name).toBe(name);
      expect(parsed?.message).toEqual(samples[name]);
    }
    expect(parseServerMessage('pong')).toEqual({ name: 'pong', message: 'pong' });
    const kline = parseServerMessage(JSON.stringify(samples.KLINE)) as ParsedJsonMessage;
    expect(topicOfMessage(kline)).toBe('KLINE.BTCUSDT');
    expect(topicOfMessage(parseServerMessage(JSON.stringify(samples.SUPPORT)) as ParsedJsonMessage)).toBe('SUPPORT');
    expect(topicOfMessage(parseServerMessage(JSON.stringify(samples.CHAT)) as ParsedJsonMessage)).toBe('CHAT');
    expect(topicOfMessage(parseServerMessage(JSON.stringify(samples.login_result)) as ParsedJsonMessage)).toBeNull();
  });

  it('refuses what the schemas refuse: a field missing, a string for a number or a number for a string, an unknown type', () => {
    for (const name of names) {
      const sample = samples[name] as Record<string, unknown>;
      const schema = serverMessages[name].schema;
      for (const key of Object.keys(sample).filter((k) => k !== 'type')) {
        const without = { ...sample };
        delete without[key];
        const swapped = { ...sample, [key]: typeof sample[key] === 'string' ? 1 : typeof sample[key] === 'number' ? '1' : 'x' };
        for (const mutated of [without, swapped]) {
          expect(schema.safeParse(mutated).success, `${name} ${key}`).toBe(false);
          expect(parseServerMessage(JSON.stringify(mutated))?.name === name, `${name} ${key}`).toBe(false);
        }
      }
    }
    expect(parseServerMessage(JSON.stringify({ type: 'NOPE' }))).toBeNull();
    expect(parseServerMessage('{not json')).toBeNull();
    expect(parseServerMessage('null')).toBeNull();
  });

  it('reads a frame with a field added by a newer server (existing clients ignore it)', () => {
    expect(parseServerMessage(JSON.stringify({ ...samples.FOREX_CLOSED, extra: 1 }))?.name).toBe('FOREX_CLOSED');
  });

  it('declares what clients send, with a string `params`', () => {
    expect(clientMessages.login.schema.safeParse({ type: 'login', params: 'token' }).success).toBe(true);
    expect(clientMessages.sub.schema.safeParse({ type: 'sub', params: 1 }).success).toBe(false);
    expect(clientMessages.ping.schema.safeParse('ping').success).toBe(true);
  });
});

describe("the README's websocket notes", () => {
  const readme = fs.readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
  const start = readme.indexOf('## Websocket notes');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));

  it('hold the table generated from the declarations: run `npm run docs:socket` after changing pushes.ts', () => {
    expect(start).toBeGreaterThan(0);
    const table = section.slice(section.indexOf(README_BEGIN), section.indexOf(README_END) + README_END.length);
    expect(table).toBe(renderReadmeTable());
  });

  it('name no message or topic that is not declared, and miss none', () => {
    const declared = new Set<string>([
      ...Object.keys(serverMessages),
      ...Object.values(serverMessages).flatMap((d) => [d.type, ...(d.topic ? [d.topic] : [])]),
      ...Object.keys(clientMessages),
    ]);
    // Backquoted names that look like a message or a topic: upper case (DAY_MARKET, KLINE.{code}) or *_result.
    const named = [...section.matchAll(/`([^`\s]+)`/g)]
      .map((m) => m[1]!)
      .filter((n) => /^[A-Z][A-Z_]+(\.\{code\})?$/.test(n) || /^[a-z]+_result$/.test(n));
    expect(named.filter((n) => !declared.has(n))).toEqual([]);
    for (const name of [...Object.keys(serverMessages), ...Object.keys(clientMessages)]) expect(section, name).toContain(`| \`${name}\` |`);
  });
});
