// tsyringe, under the FIX engine, needs the Reflect metadata polyfill loaded before it.
import 'reflect-metadata';
import type { IJsFixLogger, ISessionDescription, JsFixLoggerFactory } from 'jspurefix';

// The engine's run-time parts reach the rest of the server only through here, after the polyfill.
export { AsciiSession, MsgType, SessionLauncher, SessionState } from 'jspurefix';
export type { EngineFactory, IJsFixConfig, MsgView } from 'jspurefix';
import type { Logger } from 'pino';
import type { FixSessionConfig } from '../../../fix-config.ts';

/**
 * The engine's own log lines go to ours: its chatter at debug, its warnings and errors at warn, except
 * while we stop the session (its "initiator stopped" is then no news).
 */
export function engineLogs(log: Logger, session: string, stopping: () => boolean = () => false): JsFixLoggerFactory {
  const make = (component: string): IJsFixLogger => ({
    info: (message) => log.debug({ fix: session, component }, message),
    debug: (message) => log.trace({ fix: session, component }, message),
    warning: (message) => (stopping() ? log.debug : log.warn).call(log, { fix: session, component }, message),
    error: (err) => (stopping() ? log.debug : log.warn).call(log, { fix: session, component, err: err.message }, 'FIX engine error'),
  });
  return { logger: (type: string) => make(type), plain: (file: string) => make(file) } as JsFixLoggerFactory;
}

/** The engine's session description of one configured FIX 4.4 session. */
export function describeSession(s: FixSessionConfig, role: 'initiator' | 'acceptor'): ISessionDescription {
  const us = role === 'initiator' ? s.senderCompId : s.targetCompId;
  const them = role === 'initiator' ? s.targetCompId : s.senderCompId;
  return {
    application: {
      name: `${s.name}-${role}`,
      type: role,
      // The initiator keeps its session (and its sequence numbers) across lost connections.
      resilient: role === 'initiator',
      reconnectSeconds: s.reconnectSeconds,
      recoveryAttemptSeconds: s.reconnectSeconds,
      backoffFailConnectSeconds: s.maxReconnectSeconds,
      connectTimeoutSeconds: 24 * 3600,
      protocol: 'ascii',
      dictionary: 'qf44',
      tcp: {
        host: s.host,
        port: s.port,
        ...(s.tls ? { tls: { rejectUnauthorized: true, nodeTlsConnectionOptions: { servername: s.host } } } : {}),
      },
    },
    // Absent, not empty: Username (553) and Password (554) go on the Logon only when configured.
    ...(s.username === undefined ? {} : { Username: s.username }),
    ...(s.password === undefined ? {} : { Password: s.password }),
    EncryptMethod: 0,
    ResetSeqNumFlag: s.resetOnLogon,
    HeartBtInt: s.heartbeatSeconds,
    SenderCompId: us,
    TargetCompID: them,
    BeginString: 'FIX.4.4',
  } as unknown as ISessionDescription;
}

/**
 * A FIX UTCTimestamp (20261127-09:20:36.263) or a UTCDateOnly (20261127) with a UTCTimeOnly
 * (09:20:36.263), as epoch milliseconds; undefined when absent or unreadable.
 */
export function fixTime(date: string | null | undefined, time?: string | null): number | undefined {
  const d = /^(\d{4})(\d{2})(\d{2})(?:-(.+))?$/.exec(date ?? '');
  if (!d) return undefined;
  const t = /^(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?$/.exec(time ?? d[4] ?? '');
  if (!t) return undefined;
  const ms = Number(((t[4] ?? '') + '000').slice(0, 3));
  const at = Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3]), Number(t[1]), Number(t[2]), Number(t[3]), ms);
  return Number.isFinite(at) ? at : undefined;
}
