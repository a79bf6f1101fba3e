import { useState } from 'react';
import { useSessionStore } from '../../../lib/session-store';
import type { TradeSymbol } from '../../../api/get-trade-list';
import { useDeal } from '../api/get-deal';

const storageKey = (userId: number | string) => `slippage.${userId}`;

type Tolerances = Record<string, number>;

function readTolerances(userId: number | string | undefined): Tolerances {
  if (userId === undefined) return {};
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(storageKey(userId)) ?? '{}');
    return parsed && typeof parsed === 'object' ? (parsed as Tolerances) : {};
  } catch {
    return {};
  }
}

function writeTolerances(userId: number | string, tolerances: Tolerances): void {
  try {
    localStorage.setItem(storageKey(userId), JSON.stringify(tolerances));
  } catch {
    // Without storage the tolerance lasts for this visit only.
  }
}

export const isValidDeviation = (value: string): boolean => /^\d{1,7}$/.test(value.trim());

export interface Slippage {
  /** What the trader typed (points); empty until the default is known. */
  text: string;
  setText: (text: string) => void;
  /** The tolerance to send, or null while the text is not a whole number of points. */
  points: number | null;
  /** The category default from the `deal` endpoint. */
  defaultPoints: number | undefined;
}

/**
 * The slippage tolerance of market orders: the trader's own per category, kept per user id in
 * localStorage, else the category default of the `deal` endpoint.
 */
export function useSlippage(symbol: TradeSymbol): Slippage {
  const user = useSessionStore((state) => state.user);
  const userId = user?.id ?? user?.uid;
  const dealQuery = useDeal(symbol.Id, userId !== undefined);
  const defaultPoints = dealQuery.data?.deviation;
  const category = String(symbol.CategoryId);
  const [edits, setEdits] = useState<Record<string, string>>({});
  const stored = readTolerances(userId)[category];
  const text = edits[category] ?? (stored !== undefined ? String(stored) : defaultPoints !== undefined ? String(defaultPoints) : '');
  const setText = (next: string) => {
    setEdits((current) => ({ ...current, [category]: next }));
    if (userId === undefined || !isValidDeviation(next)) return;
    writeTolerances(userId, { ...readTolerances(userId), [category]: Number(next) });
  };
  return { text, setText, points: isValidDeviation(text) ? Number(text) : null, defaultPoints };
}
