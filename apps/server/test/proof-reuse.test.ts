import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { depositNetworks } from '../src/platform/db/schema.ts';
import { newUser, staffToken, type TestUser } from '../src/modules/funding/test-helpers.ts';
import { call, createTestApp, dbTargets, type TestApp } from './test-app.ts';

/** A PNG of one colour; `level` changes the file's bytes, not its pixels. */
const png = (rgb: { r: number; g: number; b: number }, level = 6) =>
  sharp({ create: { width: 80, height: 60, channels: 3, background: rgb } })
    .png({ compressionLevel: level })
    .toBuffer();

function multipart(data: Buffer) {
  const boundary = `----tp${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="proof.png"\r\ncontent-type: image/png\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * One proof picture behind many deposit claims, as a hostile trader would try it: the same upload
 * sent with several claims, the same file uploaded again, the file saved again with other bytes,
 * and another account sending the same picture. Each claim is accepted (the trader is not told);
 * staff see every such claim flagged with the other claims' ids, in the list and in a review answer.
 */
describe.each(dbTargets)('a deposit proof used on another claim is flagged to staff on %s', (target) => {
  let t: TestApp;
  let finance: string;
  let network: number;
  beforeAll(async () => {
    t = await createTestApp(target);
    finance = await staffToken(t, ['finance']);
    network = (await t.ctx.db.select().from(depositNetworks)).find((n) => n.currencyCode === 'USDT' && n.protocolCode === 'TRC20')!.id;
  });
  afterAll(async () => t?.close());

  const upload = async (u: TestUser, data: Buffer) => {
    const body = multipart(data);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/common/image_upload',
      headers: { 'content-type': body.contentType, authorization: u.token, lang: 'en' },
      payload: body.payload,
    });
    const json = res.json() as { code: number; data: { url: string } };
    expect(json.code).toBe(1);
    return json.data.url;
  };
  const claim = async (u: TestUser, proofImg: string) => {
    const res = await call(
      t,
      'POST',
      '/api/quickCharge/submit',
      { number: '100', proofImg, charge_id: network },
      { token: u.token, lang: 'en' },
    );
    expect(res.code).toBe(1);
    return res.data.id as number;
  };
  type Row = { id: number; proof_reused: boolean; proof_reused_by: number[]; proof_img: string; status: number };
  const staffList = async () => {
    const res = await call(t, 'GET', '/api/admin/deposits', { status: 0, limit: 100 }, { token: finance });
    expect(res.code).toBe(1);
    return new Map((res.data.data as Row[]).map((r) => [r.id, r]));
  };

  it('flags the same upload, the same bytes uploaded again, the file saved again and another account’s copy; not a different picture', async () => {
    const trader = await newUser(t);
    const accomplice = await newUser(t);
    const picture = { r: 30, g: 140, b: 70 };
    const first = await upload(trader, await png(picture));
    const c1 = await claim(trader, first);
    const c2 = await claim(trader, first); // the same upload again
    const c3 = await claim(trader, await upload(trader, await png(picture))); // the same file uploaded again
    const c4 = await claim(trader, await upload(trader, await png(picture, 9))); // saved again: other bytes, same picture
    const c5 = await claim(accomplice, await upload(accomplice, await png(picture))); // another account
    const honest = await claim(trader, await upload(trader, await png({ r: 200, g: 40, b: 40 })));

    const rows = await staffList();
    expect(rows.get(c1)).toMatchObject({ proof_reused: true, proof_reused_by: [c2, c3, c4, c5] });
    expect(rows.get(c2)).toMatchObject({ proof_reused: true, proof_reused_by: [c1, c3, c4, c5] });
    expect(rows.get(c5)).toMatchObject({ proof_reused: true, proof_reused_by: [c1, c2, c3, c4] });
    expect(rows.get(honest)).toMatchObject({ proof_reused: false, proof_reused_by: [] });
    // The spec's fields are all still there, the proof still a signed link.
    expect(rows.get(c1)!.proof_img).toMatch(/^\/uploads\/[0-9a-f]+\.png\?exp=\d+&sig=/);

    // A review answer carries the flag too (the claim stays flagged once reviewed).
    const rejected = await call(t, 'POST', '/api/admin/deposits/reject', { id: c3, remark: 'proof used before' }, { token: finance });
    expect(rejected.code).toBe(1);
    expect(rejected.data).toMatchObject({ id: c3, status: 2, proof_reused: true, proof_reused_by: [c1, c2, c4, c5] });
  });

  it('a single claim with its own picture is not flagged', async () => {
    const u = await newUser(t);
    const id = await claim(u, await upload(u, await png({ r: 5, g: 6, b: 250 })));
    expect((await staffList()).get(id)).toMatchObject({ proof_reused: false, proof_reused_by: [] });
  });
});
