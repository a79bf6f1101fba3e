import { describe, expect, it } from 'vitest';
import { bankAccountProblem, coinAddressProblem } from './draw-method-rules.ts';

const BANK = {
  bankName: 'Harbour Bank',
  bankAddress: '1 Queen’s Road',
  bankSwift: 'hbhk hkhx',
  payeeName: 'Chan Tai Man',
  payeeAccount: '012-345678-901',
};

describe('receiving account rules', () => {
  it('checks coin addresses against the network pattern', () => {
    const trc20 = '^T[1-9A-HJ-NP-Za-km-z]{33}$';
    expect(coinAddressProblem('TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE', trc20)).toBeNull();
    expect(coinAddressProblem('TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLS0', trc20)).toBe('funding.address_invalid');
    expect(coinAddressProblem(undefined, trc20)).toBe('input_full');
    expect(coinAddressProblem('TQn9Y2khEsLJW1ChV WFMSMeRDow5KcbLSE', null)).toBe('funding.address_invalid');
    expect(coinAddressProblem('x'.repeat(201), null)).toBe('funding.address_invalid');
    expect(coinAddressProblem('anything-plain', null)).toBeNull();
    expect(coinAddressProblem('anything-plain', '([')).toBeNull();
  });

  it('requires complete, sane bank details with an 8 or 11 character SWIFT code', () => {
    expect(bankAccountProblem(BANK)).toBeNull();
    expect(bankAccountProblem({ ...BANK, bankSwift: 'HBHKHKHX123' })).toBeNull();
    expect(bankAccountProblem({ ...BANK, payeeName: '' })).toBe('input_full');
    expect(bankAccountProblem({ ...BANK, bankSwift: 'HBHKHKH' })).toBe('funding.swift_invalid');
    expect(bankAccountProblem({ ...BANK, bankSwift: 'HBHK-HKHX' })).toBe('funding.swift_invalid');
    expect(bankAccountProblem({ ...BANK, payeeAccount: '<script>' })).toBe('funding.payee_account_invalid');
    expect(bankAccountProblem({ ...BANK, bankAddress: 'line\nbreak' })).toBe('funding.bank_details_invalid');
  });
});
