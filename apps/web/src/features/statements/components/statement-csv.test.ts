import { describe, expect, it } from 'vitest';
import type { Statement } from '../api/get-statement';
import { BOM, csvFileName, statementCsv } from './statement-csv';

const statement: Statement = {
  start: 0,
  end: 86_400,
  currency: 'USD',
  opening_balance: '1000.000000',
  closing_balance: '1085.500000',
  totals: { deposit: '0.000000', withdrawal: '0.000000', profit: '88.000000', fee: '-2.500000', swap: '0.000000', adjustment: '0.000000', net_change: '85.500000' },
  log: [
    { Id: 1, Type: 'trade_fee', Memo: 'EURUSD #7', MemoTran: '交易手續費 EURUSD #7', Value: '-2.500000', Balance: '997.500000', CreatedAt: 1_000 },
    { Id: 2, Type: 'adjustment', Memo: '=HYPERLINK("x")', MemoTran: '=HYPERLINK("x")', Value: '88.000000', Balance: '1085.500000', CreatedAt: 2_000 },
  ],
  positions: [
    {
      Id: 7,
      ForexId: 1,
      ShowCode: 'EURUSD',
      PricePrecision: 5,
      OrderType: 1,
      Quantity: '1',
      OpenPrice: '1.08512',
      ClosePrice: '1.08600',
      TradeFee: '2.500000',
      Swap: '0.000000',
      FactProfits: '88.000000',
      Points: '88',
      ClosedType: 1,
      OpenTime: 1_000,
      CloseTime: 2_000,
    },
  ],
  position_totals: { count: 1, lots: '1', profit: '88.000000', fee: '2.500000', swap: '0.000000' },
  truncated: false,
};

const hk: Record<string, string> = { col_time: '時間', col_profit: '盈虧', buy: '買入', closed_type_1: '由你平倉', opening_balance: '期初結餘' };
const label = (key: string) => hk[key] ?? `[${key}]`;

describe('statement CSV', () => {
  const csv = statementCsv(statement, { from: '2026-11-01', to: '2026-11-30' }, label);
  const lines = csv.slice(BOM.length).split('\r\n');

  it('starts with the UTF-8 mark so Excel reads Chinese and Arabic', () => {
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(csv.charCodeAt(1)).not.toBe(0xfeff);
  });

  it('has headers in the language and numbers with a decimal point, whatever the language', () => {
    expect(lines).toContain('期初結餘,1000.000000');
    expect(lines.find((l) => l.startsWith('[col_order]'))).toContain('盈虧');
    const row = lines.find((l) => l.startsWith('7,'))!;
    expect(row.split(',')).toEqual(expect.arrayContaining(['EURUSD', '買入', '1.08512', '1.08600', '88', '88.000000', '由你平倉']));
    expect(lines.find((l) => l.startsWith('[period]'))).toBe('[period],2026-11-01,2026-11-30');
  });

  it('quotes commas and quotes, and keeps a formula as text', () => {
    const formula = lines.find((l) => l.includes('HYPERLINK'))!;
    expect(formula).toContain(`"'=HYPERLINK(""x"")"`);
    expect(lines.find((l) => l.includes('交易手續費'))).toContain(',-2.500000,997.500000');
  });

  it('names the file after the range', () => {
    expect(csvFileName({ from: '2026-11-01', to: '2026-11-30' })).toBe('statement_2026-11-01_2026-11-30.csv');
  });
});
