import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseServerMessage, topicOfMessage, type ParsedJsonMessage } from './push-parse.ts';
import { SERVER_MESSAGE_SHAPES } from './push-shapes.ts';
import { pushSamples as samples } from './push-samples.ts';
import { clientMessages, type JsonServerMessageName, serverMessages } from './pushes.ts';
import { README_BEGIN, README_END, renderReadmeTable, strictSchema as strict, wireShapeOf } from './socket-docs.ts';

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
        audience: d.audience,
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
