import fs from 'node:fs';
import { Parser } from '@asyncapi/parser';
import { describe, expect, it } from 'vitest';
import { asyncApiDocument } from './asyncapi.ts';
import { clientMessages, serverMessages } from './pushes.ts';

const committed = new URL('../../../docs/asyncapi.json', import.meta.url);

describe('the AsyncAPI document of the websocket', () => {
  it('is valid AsyncAPI 3 (the parser that `asyncapi validate` runs, with its rules): no errors, no warnings', async () => {
    const { diagnostics, document } = await new Parser().parse(JSON.stringify(asyncApiDocument()));
    // Severity 0 is an error, 1 a warning (2 information, 3 a hint).
    expect(diagnostics.filter((d) => d.severity <= 1).map((d) => `${d.path.join('.')}: ${d.message}`)).toEqual([]);
    expect(document?.version()).toBe('3.1.0');
    expect(document?.allMessages().length).toBe(Object.keys(serverMessages).length + Object.keys(clientMessages).length);
  });

  it('describes every declared message with its wire type, topic and a payload requiring its fields', () => {
    const doc = asyncApiDocument() as any;
    const messages = Object.values(doc.channels.socket.messages) as any[];
    const fromServer = doc.operations.sendToClient.messages.length;
    expect(fromServer).toBe(Object.keys(serverMessages).length);
    const trade = messages.find((m) => m.title === 'FOREX_TRADE');
    expect(trade['x-topic']).toBe('FOREX_TRADE');
    expect(trade.payload.required).toContain('type');
    const kline = messages.find((m) => m.title === 'KLINE');
    expect(kline['x-topic']).toBe('KLINE.{code}');
    expect(kline.examples[0].payload.type).toBe('KLINE');
  });

  it('is committed as generated (`npm run docs:asyncapi` after changing a socket message)', () => {
    expect(JSON.parse(fs.readFileSync(committed, 'utf8'))).toEqual(JSON.parse(JSON.stringify(asyncApiDocument())));
  });
});
