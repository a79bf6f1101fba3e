import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { S3Storage, signV4, signingKey } from './storage-s3.ts';

// The examples of the AWS documentation ("Signature Calculations for the Authorization Header:
// Transferring Payload in a Single Chunk", and the Signature Version 4 test suite).
const S3_EXAMPLE = {
  region: 'us-east-1',
  service: 's3',
  accessKey: 'AKIAIOSFODNN7EXAMPLE',
  secretKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  date: new Date('2013-05-24T00:00:00Z'),
};
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

describe('AWS Signature Version 4', () => {
  it('derives the documented signing key', () => {
    expect(signingKey('wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', '20120215', 'us-east-1', 'iam').toString('hex')).toBe(
      'f4780e2d9f65fa895f9c67b32ce1baf0b0d8a43505a000a1a9e090d414db404d',
    );
  });

  it('signs the GET Object example', () => {
    const signed = signV4({
      ...S3_EXAMPLE,
      method: 'GET',
      url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'),
      headers: { Range: 'bytes=0-9', 'x-amz-content-sha256': EMPTY_SHA256 },
      payloadHash: EMPTY_SHA256,
    });
    expect(signed.canonicalRequest).toBe(
      ['GET', '/test.txt', '', 'host:examplebucket.s3.amazonaws.com', 'range:bytes=0-9', `x-amz-content-sha256:${EMPTY_SHA256}`, 'x-amz-date:20130524T000000Z', '', 'host;range;x-amz-content-sha256;x-amz-date', EMPTY_SHA256].join('\n'),
    );
    expect(signed.stringToSign).toBe('AWS4-HMAC-SHA256\n20130524T000000Z\n20130524/us-east-1/s3/aws4_request\n7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972');
    expect(signed.headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
  });

  it('signs the PUT Object example (encoded key, extra headers)', () => {
    const payloadHash = createHash('sha256').update('Welcome to Amazon S3.').digest('hex');
    expect(payloadHash).toBe('44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072');
    const signed = signV4({
      ...S3_EXAMPLE,
      method: 'PUT',
      url: new URL('https://examplebucket.s3.amazonaws.com/test$file.text'),
      headers: { Date: 'Fri, 24 May 2013 00:00:00 GMT', 'x-amz-storage-class': 'REDUCED_REDUNDANCY', 'x-amz-content-sha256': payloadHash },
      payloadHash,
    });
    expect(signed.canonicalRequest.split('\n')[1]).toBe('/test%24file.text');
    expect(signed.signature).toBe('98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd');
  });

  it('signs the GET Bucket Lifecycle and List Objects examples (query strings)', () => {
    const sign = (query: string) =>
      signV4({
        ...S3_EXAMPLE,
        method: 'GET',
        url: new URL(`https://examplebucket.s3.amazonaws.com/?${query}`),
        headers: { 'x-amz-content-sha256': EMPTY_SHA256 },
        payloadHash: EMPTY_SHA256,
      }).signature;
    expect(sign('lifecycle')).toBe('fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543');
    expect(sign('max-keys=2&prefix=J')).toBe('34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7');
  });

  it('signs the test suite get-vanilla request', () => {
    const signed = signV4({
      method: 'GET',
      url: new URL('https://example.amazonaws.com/'),
      headers: {},
      payloadHash: EMPTY_SHA256,
      region: 'us-east-1',
      service: 'service',
      accessKey: 'AKIDEXAMPLE',
      secretKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
      date: new Date('2015-08-30T12:36:00Z'),
    });
    expect(signed.signature).toBe('5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31');
  });
});

describe('S3Storage', () => {
  const opts = { endpoint: 'http://127.0.0.1:9000', bucket: 'uploads', region: 'eu-west-1', accessKey: 'AK', secretKey: 'SK', pathStyle: true };

  it('puts, gets and deletes objects with signed requests; a missing object is null', async () => {
    const objects = new Map<string, Buffer>();
    const seen: string[] = [];
    const fakeFetch = (async (url: URL, init: RequestInit) => {
      const headers = init.headers as Record<string, string>;
      expect(headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AK\/\d{8}\/eu-west-1\/s3\/aws4_request,SignedHeaders=[a-z0-9;-]*host[a-z0-9;-]*,Signature=[0-9a-f]{64}$/);
      seen.push(`${init.method} ${url.href}`);
      const key = url.pathname;
      if (init.method === 'PUT') {
        const body = Buffer.from(init.body as Uint8Array);
        expect(headers['x-amz-content-sha256']).toBe(createHash('sha256').update(body).digest('hex'));
        expect(headers['content-type']).toBe('image/png');
        objects.set(key, body);
        return new Response(null, { status: 200 });
      }
      if (init.method === 'DELETE') {
        objects.delete(key);
        return new Response(null, { status: 204 });
      }
      const data = objects.get(key);
      return data ? new Response(new Uint8Array(data)) : new Response('<Error><Code>NoSuchKey</Code></Error>', { status: 404 });
    }) as unknown as typeof fetch;
    const storage = new S3Storage(opts, fakeFetch);

    await storage.put('abc123.png', Buffer.from('png bytes'), 'image/png');
    expect((await storage.get('abc123.png'))?.toString()).toBe('png bytes');
    expect(storage.url('abc123.png')).toBe('/uploads/abc123.png');
    await storage.delete('abc123.png');
    expect(await storage.get('abc123.png')).toBeNull();
    expect(await storage.get('../etc/passwd')).toBeNull();
    await expect(storage.put('../x', Buffer.from(''), 'image/png')).rejects.toThrow(/invalid key/);
    expect(seen).toEqual([
      'PUT http://127.0.0.1:9000/uploads/abc123.png',
      'GET http://127.0.0.1:9000/uploads/abc123.png',
      'DELETE http://127.0.0.1:9000/uploads/abc123.png',
      'GET http://127.0.0.1:9000/uploads/abc123.png',
    ]);
  });

  it('addresses virtual-hosted buckets', () => {
    const storage = new S3Storage({ ...opts, endpoint: 'https://s3.eu-west-1.amazonaws.com', pathStyle: false });
    expect(storage.objectUrl('k.jpg').href).toBe('https://uploads.s3.eu-west-1.amazonaws.com/k.jpg');
  });
});
