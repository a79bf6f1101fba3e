// `npm test`: unit and API tests (PGlite, plus PostgreSQL when TEST_DATABASE_URL is set), then the
// browser tests against the built app in Debian Chromium.
import './node-version.mjs';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildWeb } from './web-build.mjs';

const root = path.resolve(import.meta.dirname, '..');
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const args = process.argv.slice(2);

// Every process below is this node: the one npm brought (node_modules/.bin/node), whatever the machine has.
console.log(`npm test: node ${process.version} (${process.execPath})`);

if (!fs.existsSync(chromium)) {
  console.error(
    `\nChromium was not found at ${chromium}. The browser tests need Debian's chromium:\n` +
      `  sudo apt-get install -y chromium\n(or set CHROMIUM_PATH to another Chromium binary).\n`,
  );
  process.exit(1);
}

const vitest = path.join(root, 'node_modules/vitest/vitest.mjs');
const run = (projects) => {
  const res = spawnSync(process.execPath, [vitest, 'run', ...projects.flatMap((p) => ['--project', p]), ...args], {
    cwd: root,
    stdio: 'inherit',
  });
  return res.status ?? 1;
};

// The whole suite starts with the static checks: the module and feature boundaries and "no import
// cycles" are lint rules (eslint.config.js), and both sides are typed from the one contract.
if (args.length === 0) {
  for (const [name, cmd] of [
    ['lint', [path.join(root, 'node_modules/eslint/bin/eslint.js'), '.']],
    ...['packages/contract', 'apps/server', 'apps/web', 'examples/bot'].map((project) => [
      `typecheck ${project}`,
      [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', project],
    ]),
  ]) {
    console.log(`npm test: ${name}`);
    const res = spawnSync(process.execPath, cmd, { cwd: root, stdio: 'inherit' });
    if (res.status !== 0) process.exit(res.status ?? 1);
  }
}

console.log(`API tests on: PGlite${process.env.TEST_DATABASE_URL ? ' and PostgreSQL' : ' (set TEST_DATABASE_URL to add PostgreSQL)'}`);
const first = run(['unit', 'api']);
if (first !== 0) process.exit(first);
buildWeb();
process.exit(run(['browser']));
