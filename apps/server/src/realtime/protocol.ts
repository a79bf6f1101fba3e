import { Code } from '@tp/contract/codes';
import type { SessionEndReason } from '@tp/contract/constants';
import { type ClientMessageName, PONG_TEXT, pushMessage } from '@tp/contract/pushes';
import type { AppContext, AuthStaff, AuthUser } from '../context.ts';
import { AppError } from '../http/errors.ts';
import { t } from '../http/i18n.ts';
import type { ClientConnection } from './client-connection.ts';
import { jsonFrame, textFrame } from './frames.ts';
import { isUserTopic, parseTopic, STAFF_TOPICS } from './topics.ts';

const PONG = textFrame(PONG_TEXT);

function reply(
  conn: ClientConnection,
  type: 'error' | 'login_result' | 'logout_result',
  code: number,
  key: string,
  params: Record<string, string | number> = {},
) {
  conn.write(jsonFrame(pushMessage(type, { code, msg: t(conn.lang, key, params) })));
}

function topicReply(
  conn: ClientConnection,
  type: 'sub_result' | 'unsub_result',
  topic: string,
  code: number,
  key: string,
  params: Record<string, string | number> = {},
) {
  conn.write(jsonFrame(pushMessage(type, { code, msg: t(conn.lang, key, params), topic })));
}

function parseMessage(text: string | null): { type: string; params: unknown } | null {
  if (text === null) return null;
  try {
    const parsed = JSON.parse(text) as { type?: unknown; params?: unknown } | null;
    return parsed && typeof parsed === 'object' && typeof parsed.type === 'string' ? { type: parsed.type, params: parsed.params } : null;
  } catch {
    return null;
  }
}

/** What the protocol needs from the gateway that hosts it (the gateway implements this; no import back). */
export interface ProtocolHost {
  readonly ctx: AppContext;
  readonly market: { symbolExists(code: string): boolean };
  logIn(conn: ClientConnection, who: { user: AuthUser } | { staff: AuthStaff }): void;
  logOut(conn: ClientConnection, reason?: SessionEndReason): void;
  subscribe(conn: ClientConnection, topic: string): void;
  unsubscribe(conn: ClientConnection, topic: string): void;
  /** Counts a login that failed; the host closes a client that keeps failing. */
  loginFailed(conn: ClientConnection): void;
  /**
   * Sends the logged-in user's kept pushes after `after` to this connection; what it sent, or null
   * when the login ended meanwhile. Throws when the journal cannot be read.
   */
  replay(conn: ClientConnection, after: number): Promise<{ complete: boolean; count: number } | null>;
}

/** One client message: the text `ping`, or JSON {type, params} (login, logout, replay, sub, unsub). */
export async function handleClientMessage(gw: ProtocolHost, conn: ClientConnection, text: string | null): Promise<void> {
  if (!conn.isOpen) return;
  if (text !== null && text.trim() === 'ping') {
    conn.write(PONG);
    return;
  }
  const message = parseMessage(text);
  if (!message) {
    reply(conn, 'error', Code.INVALID_PARAM, 'ws_bad_message');
    return;
  }
  const { type, params } = message;
  // The client messages of the contract; anything else is answered with an error.
  switch (type as ClientMessageName) {
    case 'ping':
      conn.write(PONG);
      return;
    case 'login':
      return login(gw, conn, params);
    case 'logout':
      gw.logOut(conn);
      reply(conn, 'logout_result', Code.SUCCESS, 'ws_logout_success');
      return;
    case 'replay':
      return replay(gw, conn, params);
    case 'sub':
      return subscribe(gw, conn, params);
    case 'unsub':
      return unsubscribe(gw, conn, params);
    default:
      reply(conn, 'error', Code.INVALID_PARAM, 'ws_unknown_type', { type: type.slice(0, 40) });
  }
}

/**
 * Every login gets its answer: one that could not be checked (the database away) is told so with
 * a server error code, not left unanswered, so the client knows it is logged out and retries.
 */
async function login(gw: ProtocolHost, conn: ClientConnection, params: unknown): Promise<void> {
  try {
    await checkLogin(gw, conn, params);
  } catch (err) {
    gw.ctx.log.warn({ err: { message: (err as Error).message } }, 'socket login could not be checked');
    if (conn.isOpen) reply(conn, 'login_result', 500, 'ws_login_unavailable');
  }
}

async function checkLogin(gw: ProtocolHost, conn: ClientConnection, params: unknown): Promise<void> {
  const raw = typeof params === 'string' ? params.trim() : '';
  if (raw.startsWith('ApiKey ')) return apiKeyLogin(gw, conn, raw.slice(7).trim());
  const token = raw.startsWith('Bearer ') ? raw.slice(7) : raw;
  const user = token ? await gw.ctx.services.sessions.resolveUser(token) : null;
  if (!user) {
    // A staff token logs the support desk in; it never receives a trader's pushes.
    const staff = token ? await gw.ctx.services.sessions.resolveStaff(token) : null;
    if (staff) {
      gw.logIn(conn, { staff });
      reply(conn, 'login_result', Code.SUCCESS, 'ws_login_success');
      return;
    }
    reply(conn, 'login_result', Code.SESSION_EXPIRED, 'ws_login_failed');
    gw.loginFailed(conn);
    return;
  }
  gw.logIn(conn, { user });
  reply(conn, 'login_result', Code.SUCCESS, 'ws_login_success');
}

/** `ApiKey <key>`: the socket acts as the key's user (any scope receives the user's pushes). */
async function apiKeyLogin(gw: ProtocolHost, conn: ClientConnection, key: string): Promise<void> {
  let user: AuthUser | null = null;
  try {
    user = await gw.ctx.services.apiKeys.authenticate({ kind: 'bearer', key }, conn.address);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
  }
  if (!user) {
    reply(conn, 'login_result', Code.SESSION_EXPIRED, 'ws_login_failed');
    gw.loginFailed(conn);
    return;
  }
  gw.logIn(conn, { user });
  reply(conn, 'login_result', Code.SUCCESS, 'ws_login_success');
}

function replayReply(conn: ClientConnection, code: number, key: string, data = { complete: false, count: 0 }): void {
  conn.write(jsonFrame(pushMessage('replay_result', { code, msg: t(conn.lang, key, { count: data.count }), data })));
}

/** The last seq a client saw, as a decimal string (or a number). */
function parseSeq(params: unknown): number | null {
  const text = typeof params === 'number' ? String(params) : typeof params === 'string' ? params.trim() : '';
  return /^\d{1,15}$/.test(text) ? Number(text) : null;
}

/** A trader back after a lost connection asks for the NOTICE and FOREX_CLOSED pushes that followed the last seq it saw. */
async function replay(gw: ProtocolHost, conn: ClientConnection, params: unknown): Promise<void> {
  const after = parseSeq(params);
  if (after === null) return replayReply(conn, Code.INVALID_PARAM, 'ws_replay_bad_seq');
  if (!conn.user) return replayReply(conn, Code.FORBIDDEN, 'ws_replay_login_required');
  let sent: Awaited<ReturnType<ProtocolHost['replay']>>;
  try {
    sent = await gw.replay(conn, after);
  } catch (err) {
    gw.ctx.log.warn({ err: { message: (err as Error).message } }, 'socket replay could not read the journal');
    return replayReply(conn, 500, 'ws_replay_unavailable');
  }
  if (!sent) return replayReply(conn, Code.FORBIDDEN, 'ws_replay_login_required');
  replayReply(conn, Code.SUCCESS, sent.complete ? 'ws_replayed' : 'ws_replay_incomplete', sent);
}

function subscribe(gw: ProtocolHost, conn: ClientConnection, params: unknown): void {
  const topic = parseTopic(params, (code) => gw.market.symbolExists(code));
  const name = typeof params === 'string' ? params.slice(0, 60) : '';
  if (!topic) {
    topicReply(conn, 'sub_result', name, Code.INVALID_PARAM, 'ws_unknown_topic', { topic: name });
    return;
  }
  if (isUserTopic(topic.name) && !conn.user) {
    topicReply(conn, 'sub_result', topic.name, Code.FORBIDDEN, 'ws_login_required');
    return;
  }
  const roles = conn.staff?.roles ?? [];
  const staffTopic = STAFF_TOPICS[topic.name];
  if (staffTopic && !roles.includes('admin') && !staffTopic.roles.some((r) => roles.includes(r))) {
    topicReply(conn, 'sub_result', topic.name, Code.FORBIDDEN, 'ws_login_required');
    return;
  }
  const max = gw.ctx.config.WS_MAX_SUBSCRIPTIONS;
  if (!conn.subscriptions.has(topic.name) && conn.subscriptions.size >= max) {
    topicReply(conn, 'sub_result', topic.name, Code.INVALID_PARAM, 'ws_too_many_subscriptions', { max });
    return;
  }
  topicReply(conn, 'sub_result', topic.name, Code.SUCCESS, 'ws_subscribed');
  if (!conn.subscriptions.has(topic.name)) gw.subscribe(conn, topic.name);
}

function unsubscribe(gw: ProtocolHost, conn: ClientConnection, params: unknown): void {
  const topic = parseTopic(params, () => true);
  const name = topic?.name ?? (typeof params === 'string' ? params.slice(0, 60) : '');
  if (!topic) {
    topicReply(conn, 'unsub_result', name, Code.INVALID_PARAM, 'ws_unknown_topic', { topic: name });
    return;
  }
  if (conn.subscriptions.has(topic.name)) gw.unsubscribe(conn, topic.name);
  topicReply(conn, 'unsub_result', topic.name, Code.SUCCESS, 'ws_unsubscribed');
}
