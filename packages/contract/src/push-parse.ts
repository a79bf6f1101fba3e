/**
 * The one reader of the frames a client receives on /v1/ws: a frame is dispatched on its `type` and
 * checked against that message's declared shape (generated from the zod schemas in pushes.ts, so
 * no zod runs or ships in the browser); a frame that matches no declaration is dropped.
 */
import { SERVER_MESSAGE_SHAPES, type ServerMessageShape } from './push-shapes.ts';
import type { JsonServerMessageName, ServerMessageName, ServerMessageOf, SocketTopic } from './pushes.ts';
import { matchesShape } from './wire-shape.ts';

/** A frame read: the declaration it matched, and the message. */
export type ParsedServerMessage = { [N in ServerMessageName]: { name: N; message: ServerMessageOf<N> } }[ServerMessageName];
export type ParsedJsonMessage = Extract<ParsedServerMessage, { name: JsonServerMessageName }>;

const byType = new Map<string, ServerMessageShape[]>();
let pong: ServerMessageShape | undefined;
for (const declared of SERVER_MESSAGE_SHAPES) {
  if (declared.frame === 'text') {
    if (declared.type === 'pong') pong = declared;
    continue;
  }
  const list = byType.get(declared.type) ?? [];
  list.push(declared);
  // Messages sharing a type (the user's and the desk's CHAT): the one with more fields is tried first.
  list.sort((a, b) => keyCount(b) - keyCount(a));
  byType.set(declared.type, list);
}

function keyCount(d: ServerMessageShape): number {
  return typeof d.shape === 'object' && 'object' in d.shape ? Object.keys(d.shape.object).length : 0;
}

/** Reads one text frame; null for anything that is not a declared server message. */
export function parseServerMessage(data: string): ParsedServerMessage | null {
  if (pong && data === pong.type) return { name: 'pong', message: 'pong' };
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const candidates = byType.get((value as { type?: unknown }).type as string);
  if (!candidates) return null;
  for (const declared of candidates) {
    if (matchesShape(value, declared.shape)) return { name: declared.name, message: value } as ParsedServerMessage;
  }
  return null;
}

const topicPattern = new Map(SERVER_MESSAGE_SHAPES.map((d) => [d.name, d.topic]));

/** The topic a message was pushed on (`KLINE.BTCUSDT` for a KLINE of BTCUSDT); null for replies. */
export function topicOfMessage(parsed: ParsedJsonMessage): SocketTopic | null {
  const pattern = topicPattern.get(parsed.name);
  if (!pattern) return null;
  return (
    pattern.includes('{code}') ? pattern.replace('{code}', String((parsed.message as { symbol?: unknown }).symbol)) : pattern
  ) as SocketTopic;
}

const announcements = new Set(SERVER_MESSAGE_SHAPES.filter((d) => d.audience === 'announcement').map((d) => d.topic));

/** Topics a logged-in connection gets without subscribing (NOTICE, ALERT): listened to, never sent as `sub`. */
export const isAnnouncementTopic = (topic: string): boolean => announcements.has(topic);
