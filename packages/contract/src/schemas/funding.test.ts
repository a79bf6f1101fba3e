import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D } from '../decimal.ts';
import { BindDrawMethodInput, CoinDepositInput, DrawInput, DrawListInput, WireDepositInput } from './funding.ts';

const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.success ? null : r.error!.issues[0]!.message;

describe('funding request schemas', () => {
  it('parses any plain positive amount the money column holds to its exact canonical decimal', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 12n - 1n }), fc.nat({ max: 999_999 }), (whole, frac) => {
        fc.pre(whole > 0n || frac > 0);
        const raw = `${whole}.${String(frac).padStart(6, '0')}`;
        const r = DrawInput.safeParse({ draw_currency_id: '1', number: raw });
        expect(r.success && r.data.number).toBe(new D(raw).toString());
      }),
    );
  });

  it('refuses every amount that is not a plain positive number, with its own message', () => {
    const cases: [unknown, string][] = [
      [undefined, 'msg:amount_required'],
      ['  ', 'msg:amount_required'],
      ['-1', 'msg:amount_negative'],
      ['0', 'msg:amount_zero'],
      ['0.000000', 'msg:amount_zero'],
      ['1e3', 'msg:amount_format'],
      ['NaN', 'msg:amount_format'],
      ['Infinity', 'msg:amount_format'],
      ['0x10', 'msg:amount_format'],
      ['1,000', 'msg:amount_format'],
      [Number.POSITIVE_INFINITY, 'msg:amount_format'],
      [1e21, 'msg:amount_format'],
      ['1.0000001', 'msg:amount_decimals'],
      ['1000000000000', 'msg:amount_too_large'],
      ['999999999999999999', 'msg:amount_too_large'],
      [{ value: 5 }, 'msg:amount_format'],
    ];
    for (const [number, message] of cases) {
      expect([number, firstMessage(DrawInput.safeParse({ draw_currency_id: 1, number }))]).toEqual([number, message]);
    }
  });

  it('names the missing channel or field by its message', () => {
    expect(firstMessage(CoinDepositInput.safeParse({ number: '5', proofImg: '/uploads/a.png' }))).toBe('msg:funding.no_payment_channel');
    expect(firstMessage(CoinDepositInput.safeParse({ number: '5', charge_id: 1 }))).toBe('msg:input_full');
    expect(WireDepositInput.parse({ number: '5', proofImg: '/uploads/a.png', wire_id: '' }).wire_id).toBeUndefined();
    expect(firstMessage(BindDrawMethodInput.safeParse({ type: 1 }))).toBe('msg:funding.withdraw_currency_unavailable');
    expect(DrawListInput.parse({ page: '', limit: '', t: '123' })).toEqual({ page: 1, limit: 10 });
  });
});
