// `npm run admin`, `npm run backup`, `npm run restore`: the operator commands of the built server
// (built first when missing or stale). See the README, Operations.
import './node-version.mjs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildServer, SERVER_DIST } from './server-build.mjs';

await buildServer({ quiet: true });
await import(pathToFileURL(path.join(SERVER_DIST, 'scripts/admin.js')).href);
