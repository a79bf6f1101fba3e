import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** The bytes of a signed request's body, exactly as sent (its signature covers them). */
const rawBodies = new WeakMap<FastifyRequest, Buffer>();

/**
 * Keeps the raw body of requests signed with an API key (X-API-Signature): the signature covers the
 * bytes sent, which the form and JSON parsers do not keep. Other requests are parsed as before.
 */
export function keepSignedBodies(app: FastifyInstance, limit: number): void {
  app.addHook('preParsing', async (req, _reply, payload) => {
    if (typeof req.headers['x-api-signature'] !== 'string') return payload;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of payload) {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += buf.length;
      if (size > limit) throw Object.assign(new Error('body too large'), { statusCode: 413 });
      chunks.push(buf);
    }
    const raw = Buffer.concat(chunks);
    rawBodies.set(req, raw);
    const copy = Readable.from([raw]) as Readable & { receivedEncodedLength?: number };
    copy.receivedEncodedLength = raw.length;
    return copy;
  });
}

export type RequestApiKey =
  | { kind: 'bearer'; key: string }
  | { kind: 'signed'; id: string; timestamp: string; signature: string; method: string; url: string; body: Buffer };

const header = (req: FastifyRequest, name: string) => {
  const v = req.headers[name];
  return typeof v === 'string' ? v : '';
};

/**
 * The API key a request carries: `Authorization: ApiKey <key>`, or the signed form (`X-API-Key` with
 * the key id, `X-API-Timestamp` in ms, `X-API-Signature`); null when it carries none.
 */
export function apiKeyOf(req: FastifyRequest): RequestApiKey | null {
  const auth = header(req, 'authorization');
  if (auth.startsWith('ApiKey ')) return { kind: 'bearer', key: auth.slice(7).trim() };
  const id = header(req, 'x-api-key');
  if (!id) return null;
  return {
    kind: 'signed',
    id,
    timestamp: header(req, 'x-api-timestamp'),
    signature: header(req, 'x-api-signature'),
    method: req.method,
    url: req.url,
    body: rawBodies.get(req) ?? Buffer.alloc(0),
  };
}

/**
 * The id a request's key claims: the rate limit counts per key under it (a malformed key counts per
 * address). The limit runs before the key is checked, so it counts what is claimed: a stranger who
 * knows a key's id could spend its budget; key ids appear only inside the key and in its own requests.
 */
export function claimedKeyId(headers: FastifyRequest['headers']): string | null {
  const auth = headers.authorization;
  if (typeof auth === 'string' && auth.startsWith('ApiKey ')) return /^tpk_(\d{1,10})_/.exec(auth.slice(7).trim())?.[1] ?? null;
  const id = headers['x-api-key'];
  return typeof id === 'string' && id ? (/^\d{1,10}$/.test(id) ? id : null) : null;
}
