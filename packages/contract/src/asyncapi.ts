/**
 * The AsyncAPI 3 description of the websocket /v1/ws, generated from the socket's declarations in
 * pushes.ts (as the OpenAPI document is from the endpoint table): one channel, the connection,
 * carrying every message; what the server sends are `send` operations, what it takes `receive`
 * ones. Topics are named on each message (`x-topic`), since one connection carries them all.
 */
import { z } from 'zod';
import { pushSamples } from './push-samples.ts';
import { clientMessages, type ServerMessageDeclaration, type SocketMessageDeclaration, serverMessages } from './pushes.ts';

const AUDIENCE: Record<ServerMessageDeclaration['audience'], string> = {
  reply: 'Answers the client’s own message.',
  quote: 'To connections subscribed to the topic (coalesced per symbol for a slow client).',
  user: 'To the logged-in user’s connections subscribed to the topic.',
  announcement: 'To every logged-in connection of the user (no `sub` needed).',
  staff: 'To staff connections subscribed to the topic with its role (support for SUPPORT, risk for DESK; admin for both).',
  session: 'To the connection whose session ended; it is closed after this message.',
};

const camel = (name: string) => name.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''));

function payloadOf(d: SocketMessageDeclaration): Record<string, unknown> {
  const schema = z.toJSONSchema(d.schema, { target: 'draft-7', unrepresentable: 'any' }) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}

function messageOf(name: string, d: SocketMessageDeclaration, extra: Record<string, unknown>, example?: unknown) {
  return {
    name: d.type,
    title: name,
    summary: d.summary.split(/(?<=\.)\s/)[0],
    description: d.summary,
    contentType: d.frame === 'json' ? 'application/json' : 'text/plain',
    payload: payloadOf(d),
    ...(example === undefined ? {} : { examples: [{ name: `${camel(name)}Example`, payload: example }] }),
    ...(d.topic ? { 'x-topic': d.topic } : {}),
    'x-frame': d.frame,
    ...extra,
  };
}

export function asyncApiDocument(): Record<string, unknown> {
  const messages: Record<string, unknown> = {};
  const sent: { $ref: string }[] = [];
  const received: { $ref: string }[] = [];
  const operations: Record<string, unknown> = {};
  for (const [name, d] of Object.entries(serverMessages) as [string, ServerMessageDeclaration][]) {
    const key = `server${camel(name.charAt(0).toUpperCase() + name.slice(1))}`;
    const samples = pushSamples as Record<string, unknown>;
    const example = d.frame === 'text' ? d.type : samples[name];
    messages[key] = messageOf(name, d, { 'x-audience': d.audience, 'x-audience-description': AUDIENCE[d.audience] }, example);
    sent.push({ $ref: `#/channels/socket/messages/${key}` });
  }
  for (const [name, d] of Object.entries(clientMessages) as [string, SocketMessageDeclaration][]) {
    const key = `client${camel(name.charAt(0).toUpperCase() + name.slice(1))}`;
    messages[key] = messageOf(name, d, {});
    received.push({ $ref: `#/channels/socket/messages/${key}` });
  }
  operations.sendToClient = {
    action: 'send',
    channel: { $ref: '#/channels/socket' },
    title: 'What the server sends',
    summary: 'Replies, quotes on subscribed topics, the logged-in user’s pushes and announcements.',
    messages: sent,
  };
  operations.receiveFromClient = {
    action: 'receive',
    channel: { $ref: '#/channels/socket' },
    title: 'What the server takes',
    summary: 'Heartbeat, login and logout, subscriptions and replay.',
    messages: received,
  };
  return {
    asyncapi: '3.1.0',
    info: {
      title: 'Trading platform websocket',
      version: '1.0.0',
      description: [
        'One websocket per client at `/v1/ws`. Send `ping` (text, or JSON `{"type":"ping"}`) every 5 s: the server answers `pong` and',
        'closes a connection that stays silent. Log in with `{"type":"login","params":"<session token>"}`, or `"ApiKey <key>"` for a bot;',
        'subscribe to a topic with `{"type":"sub","params":"<topic>"}` (quote topics need no login; `FOREX_TRADE`, `FOREX_CLOSED` and `CHAT`',
        'need one; `NOTICE` and `ALERT` reach every logged-in connection). Each message is declared once in the contract',
        '(packages/contract/src/pushes.ts); this document is generated from those declarations.',
      ].join(' '),
      license: { name: 'See the repository’s LICENSE' },
    },
    defaultContentType: 'application/json',
    servers: {
      local: {
        host: 'localhost:8080',
        protocol: 'ws',
        pathname: '/v1/ws',
        description: 'A server started with `npm start`; use wss behind TLS in production.',
      },
    },
    channels: {
      socket: {
        address: '/v1/ws',
        title: 'The connection',
        description: 'Every message travels on the one connection; `x-topic` names the topic a message is sent on.',
        messages,
      },
    },
    operations,
  };
}
