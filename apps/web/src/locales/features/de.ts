// Every feature's strings in this language but the home screen's (markets): one chunk, loaded after the first screen (lib/i18n.ts).
export default import.meta.glob<Record<string, unknown>>(['../../features/*/locales/de.json', '!../../features/markets/**'], { eager: true, import: 'default' });
