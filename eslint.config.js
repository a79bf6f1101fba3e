import fs from 'node:fs';
import js from '@eslint/js';
import globals from 'globals';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** Server modules (apps/server/src/modules/<name>): the boundary rule below gives each its own zone. */
const SERVER_MODULES = fs
  .readdirSync(new URL('./apps/server/src/modules', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** The `type` of every message the socket server sends (declared in packages/contract/src/pushes.ts; realtime/push-lint.unit.test.ts keeps the two equal). */
export const PUSH_TYPES = [
  'error',
  'login_result',
  'logout_result',
  'sub_result',
  'unsub_result',
  'replay_result',
  'session_ended',
  'DAY_MARKET',
  'KLINE',
  'MARKET_DEPTH',
  'FOREX_TRADE',
  'FOREX_CLOSED',
  'NOTICE',
  'ALERT',
  'CHAT',
  'DESK',
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'apps/server/drizzle/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-empty-object-type': 'off',
      'no-console': 'off',
    },
  },
  // The service worker and the offline page's script: plain scripts the build copies as they are.
  {
    files: ['apps/web/public/**/*.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.serviceworker, ...globals.browser } },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  // Module boundaries (issue 18): no import cycles in the server and the contract (the web app's block below has its own).
  {
    files: ['apps/server/**/*.ts', 'packages/contract/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  // Server module boundaries (issue 18): modules/<x> reaches modules/<y> only through modules/<y>/index.ts, and
  // reads only its own tables (modules/<x>/schema.ts) and the platform's (platform/db/platform-schema.ts).
  // Tests and their kits may reach into any module.
  {
    files: ['apps/server/src/modules/**/*.ts'],
    ignores: ['**/*.test.ts', '**/test-kit.ts', '**/scenario-kit.ts', '**/test-helpers.ts'],
    plugins: { 'import-x': importX },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: SERVER_MODULES.map((name) => ({
            target: `./apps/server/src/modules/${name}`,
            from: './apps/server/src/modules',
            except: [`./${name}`, ...SERVER_MODULES.filter((other) => other !== name).map((other) => `./${other}/index.ts`)],
            message: 'A module reaches another only through its index.ts (its service), never its files or tables.',
          })).concat({
            target: './apps/server/src/modules',
            from: './apps/server/src/platform/db/schema.ts',
            message: "Import your module's own ./schema.ts (or platform-schema.ts), not every table.",
          }),
        },
      ],
    },
  },
  // Inside the trading module the domain speaks the spec's words (margin, leverage, profit); the wire
  // shapes (Order with its CautionMoney, ForexDetail, Notice, Alert, ...) are built in views/ only, and
  // sent by events/ (pushes) and the route files.
  {
    files: ['apps/server/src/modules/trading/**/*.ts'],
    ignores: [
      'apps/server/src/modules/trading/views/**',
      'apps/server/src/modules/trading/events/**',
      '**/routes.ts',
      '**/account-routes.ts',
      '**/*.test.ts',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@tp/contract/schemas/trading',
              importNames: [
                'Order',
                'OrderSchema',
                'ForexDetail',
                'ForexDetailSchema',
                'Notice',
                'NoticeSchema',
                'Alert',
                'AlertSchema',
                'MyDealSchema',
                'DealSchema',
              ],
              message: 'Wire shapes are built in modules/trading/views/; use the domain row and a view function.',
            },
          ],
        },
      ],
    },
  },
  // Socket messages are declared once (packages/contract/src/pushes.ts) and built with its `pushMessage`:
  // an object literal that names a message's `type` anywhere else is a frame the contract does not check.
  {
    files: ['apps/server/src/**/*.ts', 'apps/web/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts', '**/test-kit.ts', '**/scenario-kit.ts', '**/test-helpers.ts', '**/ws-test-client.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          `Property[key.name='type'][value.type='Literal'][value.value=/^(${PUSH_TYPES.join('|')})$/]`,
          "Property[key.name='type'] > MemberExpression.value[object.name='WsTopic']",
          "Property[key.name='type'] > Identifier.value[name=/^(CHAT_PUSH_TYPE|SESSION_ENDED_PUSH)$/]",
        ].map((selector) => ({
          selector,
          message: "Build socket messages with pushMessage('NAME', body) from @tp/contract/pushes (declared there, checked by its schema).",
        })),
      ],
    },
  },
  // Web boundaries (issue 18): app -> features -> shared, a feature never imports another one, and no
  // import cycles. New folders under features/ are covered as soon as they exist.
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: webZones() }],
    },
  },
);

/** The web app's layers: app/ and main.tsx on top, then features/<name>/, then the shared folders. */
function webZones() {
  const src = 'apps/web/src';
  const features = fs
    .readdirSync(`${import.meta.dirname}/${src}/features`, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  const shared = ['api', 'components', 'lib', 'stores', 'types'].map((dir) => `${src}/${dir}`);
  return [
    ...features.map((name) => ({
      target: `${src}/features/${name}`,
      from: `${src}/features`,
      except: [`./${name}`],
      message: 'A feature does not import another feature: move the shared piece to components/, lib/, stores/ or api/.',
    })),
    {
      target: `${src}/features`,
      from: [`${src}/app`, `${src}/main.tsx`],
      message: 'Features do not import the app layer (router, layouts): the app composes features, not the other way round.',
    },
    {
      target: shared,
      from: `${src}/features`,
      // A feature's strings are data: the i18next type declaration reads every feature's en.json.
      except: features.map((name) => `./${name}/locales`),
      message: 'Shared code does not import a feature: move what both need into the shared folder.',
    },
    {
      target: shared,
      from: [`${src}/app`, `${src}/main.tsx`],
      message: 'Shared code does not import the app layer.',
    },
  ];
}
