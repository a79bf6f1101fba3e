import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The layer rules live in eslint.config.js; these cases prove `npm run lint` still refuses a breach.
const root = path.resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: root });

async function breaches(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\nexport const probe = imported;\n`, { filePath: path.join(root, file) });
  return result!.messages.filter((m) => m.ruleId === 'import-x/no-restricted-paths').map((m) => m.message);
}

describe('web boundaries', () => {
  it.each([
    [
      'a feature imports another feature',
      'apps/web/src/features/rank/components/probe.tsx',
      "import * as imported from '../../markets/api/get-abbreviated-kline';",
    ],
    [
      'a feature imports the app layer',
      'apps/web/src/features/rank/components/probe.tsx',
      "import * as imported from '../../../app/router';",
    ],
    ['shared code imports a feature', 'apps/web/src/lib/probe.ts', "import * as imported from '../features/markets/api/get-abbreviated-kline';"],
    ['a shared component imports the app layer', 'apps/web/src/components/ui/probe.tsx', "import * as imported from '../../app/router';"],
  ])(
    'refuses: %s',
    async (_case, file, source) => {
      expect(await breaches(file, source)).toHaveLength(1);
    },
    30_000,
  );

  it.each([
    [
      'a feature imports its own api',
      'apps/web/src/features/markets/components/probe.tsx',
      "import * as imported from '../api/get-abbreviated-kline';",
    ],
    [
      'a feature imports shared code',
      'apps/web/src/features/rank/components/probe.tsx',
      "import * as imported from '../../../lib/format';",
    ],
    ['the app imports a feature', 'apps/web/src/app/probe.tsx', "import * as imported from '../features/markets/api/get-abbreviated-kline';"],
    ['shared code reads a feature’s strings', 'apps/web/src/types/probe.ts', "import imported from '../features/markets/locales/en.json';"],
  ])(
    'allows: %s',
    async (_case, file, source) => {
      expect(await breaches(file, source)).toEqual([]);
    },
    30_000,
  );

  it('forbids import cycles in the web app', async () => {
    const config = await eslint.calculateConfigForFile(path.join(root, 'apps/web/src/main.tsx'));
    expect(config.rules['import-x/no-cycle']?.[0]).toBe(2);
  });
});
