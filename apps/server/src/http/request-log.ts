import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';

/**
 * One line per request at debug (off at the default info level), or at warn when it took longer
 * than slowMs. The path only: existing clients send codes and passwords in GET query strings.
 * Failed requests are logged by the error handler; each line carries the request id (reqId).
 */
export function registerRequestLog(app: FastifyInstance, slowMs: number): void {
  app.addHook('onResponse', async (req, reply) => {
    const ms = Math.round(reply.elapsedTime);
    const slow = ms >= slowMs;
    if (!slow && !(req.log as Logger).isLevelEnabled('debug')) return;
    const line = { method: req.method, path: req.url.split('?')[0], statusCode: reply.statusCode, ms };
    if (slow) req.log.warn(line, 'slow request');
    else req.log.debug(line, 'request');
  });
}
