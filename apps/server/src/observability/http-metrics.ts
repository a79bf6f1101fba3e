import type { FastifyInstance } from 'fastify';
import type { Metrics } from './metrics.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The envelope's code of the answer ('' for answers outside the envelope), for the metrics. */
    apiCode: string;
  }
}

const ENVELOPE_START = '{"code":';

/**
 * Counts every request by its route pattern (never the raw URL, so ids and query strings do not
 * make new series), HTTP status and envelope code, and times it. Registered before the
 * compression hook, so the answer is still the serialized text.
 */
export function observeHttp(app: FastifyInstance, metrics: Metrics): void {
  app.decorateRequest('apiCode', '');
  app.addHook('onSend', async (req, _reply, payload) => {
    if (typeof payload === 'string' && payload.startsWith(ENVELOPE_START)) {
      const end = payload.indexOf(',', ENVELOPE_START.length);
      if (end > 0) req.apiCode = payload.slice(ENVELOPE_START.length, end);
    }
    return payload;
  });
  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url ?? 'unmatched';
    metrics.httpRequests.inc({ method: req.method, route, status: String(reply.statusCode), code: req.apiCode });
    metrics.httpDuration.observe({ method: req.method, route }, reply.elapsedTime / 1000);
  });
}
