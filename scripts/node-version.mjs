// Imported first by every script: the project runs on the Node line `engines` names, which npm
// brings with the install (the node-<os>-<cpu> optional dependency, found first on the PATH of
// every npm script). Started by another node, say so and how to run it, rather than fail later on
// an API or a dependency that line does not have. No other import: this must run before any other
// module of the script is evaluated.
import fs from 'node:fs';
import path from 'node:path';

const root = new URL('../', import.meta.url);
const wanted = Number(/\d+/.exec(JSON.parse(fs.readFileSync(new URL('package.json', root), 'utf8')).engines.node)[0]);
const major = Number(process.versions.node.split('.')[0]);

if (major < wanted) {
  const bundled = fs.existsSync(new URL(`node_modules/.bin/node${process.platform === 'win32' ? '.cmd' : ''}`, root));
  const script = process.argv[1] ? ` ${path.relative(process.cwd(), process.argv[1])}` : '';
  console.error(
    `\nThis project runs on Node ${wanted} or newer; this is Node ${process.version} (${process.execPath}).\n` +
      (bundled
        ? `npm brought Node ${wanted} with the install: run the npm script (npm start, npm test, ...),\n` +
          `whose PATH finds it first, or start it directly with node_modules/.bin/node${script}.\n`
        : `Run npm ci (npm brings Node ${wanted} into node_modules/.bin for Linux x64 and arm64, macOS x64\n` +
          `and Windows x64), or install Node ${wanted} from https://nodejs.org.\n`),
  );
  process.exit(1);
}
