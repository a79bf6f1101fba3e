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
 * English is bundled as the fallback; every other language is loaded on demand.
 */
const featureEn = import.meta.glob<Tree>('../features/*/locales/en.json', { eager: true, import: 'default' });
const loaders = import.meta.glob<Tree>(['../locales/*.json', '../features/*/locales/*.json', '!**/en.json'], { import: 'default' });

const featureOf = (path: string) => /features\/([^/]+)\/locales/.exec(path)?.[1];

function merge(shell: Tree, features: [string, Tree][]): Resource {
  const out: Resource = { ...shell };
  for (const [path, tree] of features) {
    const name = featureOf(path);
    if (name) out[name] = tree;
  }
  return out;
}

const en: Resource = merge(shellEn as Tree, Object.entries(featureEn));

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

async function fetchResource(code: LangCode): Promise<Resource | null> {
  if (code === 'en') return en;
  const suffix = `/${code}.json`;
  const shellLoader = loaders[`../locales/${code}.json`];
  if (!shellLoader) return null;
  const featurePaths = Object.keys(loaders).filter((p) => p.endsWith(suffix) && featureOf(p));
  const [shell, ...features] = await Promise.all([shellLoader(), ...featurePaths.map((p) => loaders[p]!())]);
  return merge(shell, features.map((tree, i) => [featurePaths[i]!, tree]));
}

async function loadResources(code: LangCode): Promise<void> {
  if (i18next.hasResourceBundle(code, 'translation')) return;
  const resource = await fetchResource(code);
  if (resource) i18next.addResourceBundle(code, 'translation', resource, true, true);
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
    const resource = await fetchResource(lang);
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
    showSupportNotice: false,
  });
  applyDocumentLanguage(lang);
}

/** Switches the whole app at once and remembers the choice. */
export async function setLanguage(input: string): Promise<void> {
  const lang = normalizeLang(input);
  await loadResources(lang);
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
