import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import {
  DEFAULT_LANG,
  isRtl,
  isSupportedLang,
  langFromBrowser,
  localeOf,
  normalizeLang,
  type LangCode,
} from '@tp/contract/languages';
import shellEn from '../locales/en.json';

export const LANG_STORAGE_KEY = 'lang';

type Tree = { [key: string]: string | Tree };
type Resource = Tree;

/**
 * Translations: the shell's strings in locales/<lang>.json, and each feature's own strings in
 * features/<feature>/locales/<lang>.json, merged under the feature's name (t('trade.buy')).
 *
 * Only the first screen's strings (the shell and the home screen's markets feature) are needed
 * before the first render: English ones are bundled as the fallback, another language's are fetched
 * at start. Every other feature's strings come in one chunk per language (locales/features/<lang>.ts),
 * fetched once the first screen is up or when a page that needs them is opened (`featureTranslations`,
 * which the router's lazy pages wait for), so they stay out of the boot chunk.
 */
const FIRST_SCREEN_FEATURE = 'markets';
const firstScreenEn = import.meta.glob<Tree>('../features/markets/locales/en.json', { eager: true, import: 'default' });
const firstScreenLoaders = import.meta.glob<Tree>(['../locales/*.json', '../features/markets/locales/*.json', '!**/en.json'], {
  import: 'default',
});
const featureLoaders = import.meta.glob<Record<string, Tree>>('../locales/features/*.ts', { import: 'default' });

const featureOf = (path: string) => /features\/([^/]+)\/locales/.exec(path)?.[1];

function merge(shell: Tree, features: [string, Tree][]): Resource {
  const out: Resource = { ...shell };
  for (const [path, tree] of features) {
    const name = featureOf(path);
    if (name) out[name] = tree;
  }
  return out;
}

const en: Resource = merge(shellEn as Tree, Object.entries(firstScreenEn));

/** First visit: the stored choice, else a supported browser language, else hk (spec section 2). */
export function resolveLanguage(stored: string | null | undefined, browserLanguages: readonly string[]): LangCode {
  if (stored && isSupportedLang(stored)) return normalizeLang(stored);
  for (const tag of browserLanguages) {
    const code = langFromBrowser(tag);
    if (code) return code;
  }
  return DEFAULT_LANG;
}

function storedLanguage(): string | null {
  try {
    return localStorage.getItem(LANG_STORAGE_KEY);
  } catch {
    return null;
  }
}

function browserLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : [navigator.language];
}

/** The first screen's strings of a language: the shell and the markets feature. */
async function fetchFirstScreen(code: LangCode): Promise<Resource | null> {
  if (code === 'en') return en;
  const shellLoader = firstScreenLoaders[`../locales/${code}.json`];
  const featureLoader = firstScreenLoaders[`../features/${FIRST_SCREEN_FEATURE}/locales/${code}.json`];
  if (!shellLoader || !featureLoader) return null;
  const [shell, feature] = await Promise.all([shellLoader(), featureLoader()]);
  return merge(shell, [[`features/${FIRST_SCREEN_FEATURE}/locales`, feature]]);
}

/** Every other feature's strings of a language, merged under the features' names. */
async function fetchFeatures(code: LangCode): Promise<Resource | null> {
  const loader = featureLoaders[`../locales/features/${code}.ts`];
  if (!loader) return null;
  return merge({}, Object.entries(await loader()));
}

async function loadFirstScreen(code: LangCode): Promise<void> {
  if (i18next.hasResourceBundle(code, 'translation')) return;
  const resource = await fetchFirstScreen(code);
  if (resource) i18next.addResourceBundle(code, 'translation', resource, true, true);
}

const featuresLoaded = new Map<LangCode, Promise<void>>();

/** Loads the features' strings of a language once (a failed load is tried again next time). */
function loadFeatures(code: LangCode): Promise<void> {
  let loading = featuresLoaded.get(code);
  if (!loading) {
    loading = fetchFeatures(code).then((resource) => {
      if (resource) i18next.addResourceBundle(code, 'translation', resource, true, false);
    });
    loading.catch(() => featuresLoaded.delete(code));
    featuresLoaded.set(code, loading);
  }
  return loading;
}

/**
 * Resolves once every feature's strings of the current language and of English (the fallback) are
 * loaded; never rejects (a page whose strings failed to load shows English or the keys rather than
 * nothing). Lazy pages wait for it together with their own chunk.
 */
export function featureTranslations(): Promise<void> {
  const langs = new Set<LangCode>(['en', currentLang()]);
  return Promise.all([...langs].map(loadFeatures)).then(
    () => undefined,
    (error: unknown) => console.error('could not load the translations', error),
  );
}

function applyDocumentLanguage(code: LangCode): void {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = localeOf(code);
  document.documentElement.dir = isRtl(code) ? 'rtl' : 'ltr';
}

export async function initI18n(): Promise<void> {
  const lang = resolveLanguage(storedLanguage(), browserLanguages());
  const resources: Record<string, { translation: Resource }> = { en: { translation: en } };
  try {
    const resource = await fetchFirstScreen(lang);
    if (resource) resources[lang] = { translation: resource };
  } catch (error) {
    console.error(`could not load language ${lang}; showing English`, error);
  }
  await i18next.use(initReactI18next).init({
    resources,
    lng: lang,
    fallbackLng: 'en',
    partialBundledLanguages: true,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  applyDocumentLanguage(lang);
  // The other pages' strings, fetched when the browser is idle after the first screen.
  if (typeof window === 'undefined') return;
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => void featureTranslations(), { timeout: 5000 });
  else setTimeout(() => void featureTranslations(), 2000);
}

/** Switches the whole app at once and remembers the choice. */
export async function setLanguage(input: string): Promise<void> {
  const lang = normalizeLang(input);
  await Promise.all([loadFirstScreen(lang), loadFeatures(lang), loadFeatures('en')]);
  await i18next.changeLanguage(lang);
  try {
    localStorage.setItem(LANG_STORAGE_KEY, lang);
  } catch {
    // Private mode without storage: the choice lasts for this visit only.
  }
  applyDocumentLanguage(lang);
}

export function currentLang(): LangCode {
  return normalizeLang(i18next.language);
}

export const currentLocale = (): string => localeOf(currentLang());

export { i18next as i18n };
