import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's security headers on every answer, worked out once at start from helmet's own middleware
 * and set as they are on each request. (@fastify/helmet built helmet's middleware again on every
 * request, parsing the CSP each time: about 60-190 µs of CPU per request on this project's 2-core
 * machine against 15-25 µs for this, a large share of an order's CPU; the headers never depend on
 * the request.) A route may still set its own (the uploads' stricter CSP): its header wins.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: Readonly<HelmetOptions>): void {
  const headers = helmetHeaders(options);
  app.addHook('onRequest', (_req, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
}

/** The headers helmet's middleware sets, read from a response that only records them. */
export function helmetHeaders(options: Readonly<HelmetOptions>): [string, string][] {
  const set = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: unknown) => void set.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => void set.delete(name.toLowerCase()),
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  return [...set];
}
