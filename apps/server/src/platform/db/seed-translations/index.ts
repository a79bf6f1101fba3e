import type { TranslatedLang } from '@tp/contract/schemas/content';
import type { SeedTranslation } from './types.ts';
import ar from './ar.ts';
import cs from './cs.ts';
import de from './de.ts';
import fr from './fr.ts';
import hi from './hi.ts';
import hk from './hk.ts';
import id from './id.ts';
import it from './it.ts';
import jp from './jp.ts';
import kr from './kr.ts';
import my from './my.ts';
import pt from './pt.ts';
import ru from './ru.ts';
import spa from './spa.ts';
import th from './th.ts';
import tr from './tr.ts';
import vn from './vn.ts';

/** The seeded announcement notice and news in each language but English (seed-data.ts holds the English reference). */
export const seedTranslations: Record<TranslatedLang, SeedTranslation> = {
  ar,
  cs,
  de,
  fr,
  hi,
  hk,
  id,
  it,
  jp,
  kr,
  my,
  pt,
  ru,
  spa,
  th,
  tr,
  vn,
};
