import pino, { type DestinationStream, type Logger } from 'pino';
import type { Config } from '../config.ts';

/** Passwords and tokens never reach a log line, whatever the level. */
const REDACT = ['req.headers.authorization', 'password', 'new_password', 're_password', 'token'];

/**
 * JSON lines in production (for a log collector), readable lines in development (pino-pretty, a
 * development dependency, in a worker thread).
 */
export function createLogger(config: Config, destination?: DestinationStream): Logger {
  const options = { level: config.LOG_LEVEL, redact: REDACT };
  if (destination) return pino(options, destination);
  if (config.NODE_ENV === 'development')
    return pino({ ...options, transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } });
  // Written as they come: none is lost at process.exit, and none lands after the start block.
  return pino(options, pino.destination({ dest: 1, sync: true }));
}
