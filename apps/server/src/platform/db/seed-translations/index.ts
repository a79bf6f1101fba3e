import type { TranslatedLang } from '@tp/contract/schemas/content';
import type { SeedTranslation } from './types.ts';
import ar from './ar.ts';
import hk from './hk.ts';
// TEMP while translating
export const seedTranslations = new Proxy({ ar, hk } as Record<TranslatedLang, SeedTranslation>, { get: (o, k) => (o as never)[k] ?? hk });
