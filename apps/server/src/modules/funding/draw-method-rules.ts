/** What a receiving account must look like before it can be bound. Each check answers a message key, or null when fine. */

const CONTROL_CHARS = /\p{Cc}/u;
const SWIFT = /^[A-Z0-9]{8}([A-Z0-9]{3})?$/;
const PAYEE_ACCOUNT = /^[A-Za-z0-9][A-Za-z0-9 -]{3,63}$/;
const ADDRESS_MAX = 200;

export interface BankFields {
  bankName: string;
  bankAddress: string;
  bankSwift: string;
  payeeName: string;
  payeeAccount: string;
}

/** Checks a coin address against its network's pattern (set by staff); a pattern that does not compile accepts any plain address. */
export function coinAddressProblem(address: string | undefined, pattern: string | null): string | null {
  if (!address) return 'input_full';
  if (address.length > ADDRESS_MAX || /\s/.test(address) || CONTROL_CHARS.test(address)) return 'funding.address_invalid';
  if (!pattern) return null;
  let re: RegExp;
  try {
    re = new RegExp(pattern);
  } catch {
    return null;
  }
  return re.test(address) ? null : 'funding.address_invalid';
}

export const normalizeSwift = (swift: string) => swift.replace(/\s+/g, '').toUpperCase();

export function bankAccountProblem(fields: Partial<BankFields>): string | null {
  const { bankName, bankAddress, bankSwift, payeeName, payeeAccount } = fields;
  if (!bankName || !bankAddress || !bankSwift || !payeeName || !payeeAccount) return 'input_full';
  if ([bankName, bankAddress, payeeName, payeeAccount].some((v) => CONTROL_CHARS.test(v))) return 'funding.bank_details_invalid';
  if (!SWIFT.test(normalizeSwift(bankSwift))) return 'funding.swift_invalid';
  if (!PAYEE_ACCOUNT.test(payeeAccount)) return 'funding.payee_account_invalid';
  return null;
}
