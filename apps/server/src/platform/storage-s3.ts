import { createHash, createHmac } from 'node:crypto';
import { type Storage, UPLOADS_PATH, assertStorageKey } from './storage.ts';

export interface S3Options {
  /** e.g. https://s3.eu-central-1.amazonaws.com or http://127.0.0.1:9000 (MinIO). */
  endpoint: string;
  bucket: string;
  region: string;
  accessKey: string;
  secretKey: string;
  /** endpoint/bucket/key (most S3-compatible stores) rather than bucket.endpoint/key. */
  pathStyle: boolean;
}

export interface SignInput {
  method: string;
  url: URL;
  /** Headers to sign besides host and x-amz-date (which are added). */
  headers: Record<string, string>;
  /** Hex SHA-256 of the body (or UNSIGNED-PAYLOAD). */
  payloadHash: string;
  region: string;
  service: string;
  accessKey: string;
  secretKey: string;
  date: Date;
}

export interface Signed {
  /** The headers to send: the input headers, x-amz-date and authorization (host comes from the URL). */
  headers: Record<string, string>;
  canonicalRequest: string;
  stringToSign: string;
  signature: string;
}

const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding as SigV4 wants it: everything but A-Z a-z 0-9 - . _ ~ (and / in paths). */
function uriEncode(text: string, keepSlash: boolean): string {
  return Array.from(Buffer.from(text, 'utf8'))
    .map((b) => {
      const c = String.fromCharCode(b);
      if (/[A-Za-z0-9\-._~]/.test(c) || (keepSlash && c === '/')) return c;
      return `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');
}

function canonicalQuery(url: URL): string {
  const pairs = [...url.searchParams.entries()].map(([k, v]) => [uriEncode(k, false), uriEncode(v, false)] as const);
  pairs.sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  return pairs.map(([k, v]) => `${k}=${v}`).join('&');
}

export function signingKey(secretKey: string, day: string, region: string, service: string): Buffer {
  return hmac(hmac(hmac(hmac(`AWS4${secretKey}`, day), region), service), 'aws4_request');
}

/** AWS Signature Version 4 for one request (header form). */
export function signV4(input: SignInput): Signed {
  const amzDate = input.date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const all: Record<string, string> = { ...input.headers, 'x-amz-date': amzDate };
  const canonical = new Map<string, string>([['host', input.url.host]]);
  for (const [name, value] of Object.entries(all)) canonical.set(name.toLowerCase(), value.trim().replace(/\s+/g, ' '));
  const names = [...canonical.keys()].sort();
  const signedHeaders = names.join(';');
  const path = decodeURIComponent(input.url.pathname);
  const canonicalRequest = [
    input.method.toUpperCase(),
    uriEncode(path, true),
    canonicalQuery(input.url),
    names.map((n) => `${n}:${canonical.get(n)}\n`).join(''),
    signedHeaders,
    input.payloadHash,
  ].join('\n');
  const scope = `${day}/${input.region}/${input.service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const signature = createHmac('sha256', signingKey(input.secretKey, day, input.region, input.service)).update(stringToSign).digest('hex');
  const authorization = `AWS4-HMAC-SHA256 Credential=${input.accessKey}/${scope},SignedHeaders=${signedHeaders},Signature=${signature}`;
  return { headers: { ...all, authorization }, canonicalRequest, stringToSign, signature };
}

/** Uploaded files in an S3-compatible bucket, signed with SigV4; the server still serves them itself. */
export class S3Storage implements Storage {
  constructor(
    private readonly opts: S3Options,
    private readonly fetchFn: typeof fetch = fetch,
  ) {}

  async put(key: string, data: Buffer, mime: string): Promise<void> {
    assertStorageKey(key);
    const res = await this.send('PUT', key, data, { 'content-type': mime });
    if (!res.ok) throw new Error(`storage: S3 put ${key} answered ${res.status}: ${await res.text()}`);
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      assertStorageKey(key);
    } catch {
      return null;
    }
    const res = await this.send('GET', key);
    if (res.status === 404) return null;
    if (!res.ok) throw new Error(`storage: S3 get ${key} answered ${res.status}`);
    return Buffer.from(await res.arrayBuffer());
  }

  async delete(key: string): Promise<void> {
    try {
      assertStorageKey(key);
    } catch {
      return;
    }
    const res = await this.send('DELETE', key);
    if (!res.ok && res.status !== 404) throw new Error(`storage: S3 delete ${key} answered ${res.status}`);
  }

  url(key: string): string {
    return `${UPLOADS_PATH}${key}`;
  }

  /** Where a key lives: path style (endpoint/bucket/key) or virtual-hosted (bucket.endpoint/key). */
  objectUrl(key: string): URL {
    const base = new URL(this.opts.endpoint);
    const prefix = base.pathname.replace(/\/$/, '');
    if (this.opts.pathStyle) return new URL(`${base.origin}${prefix}/${this.opts.bucket}/${key}`);
    return new URL(`${base.protocol}//${this.opts.bucket}.${base.host}${prefix}/${key}`);
  }

  private async send(method: string, key: string, body?: Buffer, headers: Record<string, string> = {}): Promise<Response> {
    const url = this.objectUrl(key);
    const payloadHash = sha256Hex(body ?? '');
    const signed = signV4({
      method,
      url,
      headers: { ...headers, 'x-amz-content-sha256': payloadHash },
      payloadHash,
      region: this.opts.region,
      service: 's3',
      accessKey: this.opts.accessKey,
      secretKey: this.opts.secretKey,
      date: new Date(),
    });
    return this.fetchFn(url, { method, headers: signed.headers, body: body ? new Uint8Array(body) : undefined, signal: AbortSignal.timeout(30_000) });
  }
}
