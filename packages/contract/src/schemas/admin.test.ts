import { describe, expect, it } from 'vitest';
import { AdjustBalanceInput, StaffCreateInput, SymbolSaveInput } from './admin.ts';

describe('admin schemas', () => {
  const adjust = (amount: unknown) => AdjustBalanceInput.safeParse({ user_id: '7', amount, reason: 'goodwill', key: 'key-12345' });

  it('reads a signed amount exactly, refusing zero, exponents and too many decimals', () => {
    expect(adjust('-12.500001').data?.amount).toBe('-12.500001');
    expect(adjust('+3').data?.amount).toBe('3');
    expect(adjust(' 0.1 ').data?.amount).toBe('0.1');
    for (const [raw, message] of [
      ['0', 'msg:amount_zero'],
      ['-0', 'msg:amount_zero'],
      ['1e3', 'msg:amount_format'],
      ['--1', 'msg:amount_format'],
      ['1.1234567', 'msg:amount_decimals'],
      ['', 'msg:amount_required'],
    ]) {
      expect(adjust(raw).error?.issues[0]?.message, raw).toBe(message);
    }
  });

  it('takes roles as a comma list or a JSON array, and only known roles', () => {
    const base = { email: 'A@B.co', name: 'A', password: 'long-enough-1' };
    expect(StaffCreateInput.parse({ ...base, roles: 'finance, risk' })).toMatchObject({ email: 'a@b.co', roles: ['finance', 'risk'] });
    expect(StaffCreateInput.parse({ ...base, roles: '["support"]' }).roles).toEqual(['support']);
    expect(StaffCreateInput.safeParse({ ...base, roles: 'boss' }).error?.issues[0]?.message).toBe('msg:admin.invalid_role');
    expect(StaffCreateInput.safeParse({ ...base, roles: '' }).success).toBe(false);
  });

  it('keeps symbol fields that are left out, and parses leverages, schedule and holidays', () => {
    const parsed = SymbolSaveInput.parse({ id: '3', spread: '0.5', leverages: '10, 5', schedule: '[{"day":1,"open":"00:00","close":"24:00"}]', visible: '0' });
    expect(parsed).toMatchObject({ id: 3, spread: '0.5', leverages: [10, 5], schedule: [{ day: 1, open: '00:00', close: '24:00' }], visible: false });
    expect(parsed.min_lots).toBeUndefined();
    expect(SymbolSaveInput.safeParse({ id: 3, spread: '-1' }).success).toBe(false);
    expect(SymbolSaveInput.safeParse({ id: 3, holidays: '["2030-13"]' }).success).toBe(false);
  });
});
