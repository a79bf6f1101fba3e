import { Code } from '@tp/contract/codes';
import type { SessionEndReason } from '@tp/contract/constants';
import type { AppContext, AuthStaff, AuthUser } from '../context.ts';
import { t } from '../http/i18n.ts';
import type { ClientConnection } from './client-connection.ts';
import { jsonFrame, textFrame } from './frames.ts';
import { isUserTopic, parseTopic, STAFF_SUPPORT_TOPIC } from './topics.ts';

const PONG = textFrame('pong');

function reply(
  conn: ClientConnection,
  type: string,
  code: number,
  key: string,
  params: Record<string, string | number> = {},
  extra: object = {},
) {
  conn.write(jsonFrame({ type, code, msg: t(conn.lang, key, params), ...extra }));
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
}

/** One client message: the text `ping`, or JSON {type, params} (login, logout, sub, unsub). */
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
  switch (type) {
    case 'ping':
      conn.write(PONG);
      return;
    case 'login':
      return login(gw, conn, params);
    case 'logout':
      gw.logOut(conn);
      reply(conn, 'logout_result', Code.SUCCESS, 'ws_logout_success');
      return;
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
    return;
  }
  gw.logIn(conn, { user });
  reply(conn, 'login_result', Code.SUCCESS, 'ws_login_success');
}

function subscribe(gw: ProtocolHost, conn: ClientConnection, params: unknown): void {
  const topic = parseTopic(params, (code) => gw.market.symbolExists(code));
  const name = typeof params === 'string' ? params.slice(0, 60) : '';
  if (!topic) {
    reply(conn, 'sub_result', Code.INVALID_PARAM, 'ws_unknown_topic', { topic: name }, { topic: name });
    return;
  }
  if (isUserTopic(topic.name) && !conn.user) {
    reply(conn, 'sub_result', Code.FORBIDDEN, 'ws_login_required', {}, { topic: topic.name });
    return;
  }
  const roles = conn.staff?.roles ?? [];
  if (topic.name === STAFF_SUPPORT_TOPIC && !roles.includes('support') && !roles.includes('admin')) {
    reply(conn, 'sub_result', Code.FORBIDDEN, 'ws_login_required', {}, { topic: topic.name });
    return;
  }
  const max = gw.ctx.config.WS_MAX_SUBSCRIPTIONS;
  if (!conn.subscriptions.has(topic.name) && conn.subscriptions.size >= max) {
    reply(conn, 'sub_result', Code.INVALID_PARAM, 'ws_too_many_subscriptions', { max }, { topic: topic.name });
    return;
  }
  reply(conn, 'sub_result', Code.SUCCESS, 'ws_subscribed', {}, { topic: topic.name });
  if (!conn.subscriptions.has(topic.name)) gw.subscribe(conn, topic.name);
}

function unsubscribe(gw: ProtocolHost, conn: ClientConnection, params: unknown): void {
  const topic = parseTopic(params, () => true);
  const name = topic?.name ?? (typeof params === 'string' ? params.slice(0, 60) : '');
  if (!topic) {
    reply(conn, 'unsub_result', Code.INVALID_PARAM, 'ws_unknown_topic', { topic: name }, { topic: name });
    return;
  }
  if (conn.subscriptions.has(topic.name)) gw.unsubscribe(conn, topic.name);
  reply(conn, 'unsub_result', Code.SUCCESS, 'ws_unsubscribed', {}, { topic: topic.name });
}
