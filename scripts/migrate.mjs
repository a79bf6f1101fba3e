// `npm run migrate`: applies the database migrations of the built server (built first when missing
// or stale) and exits. See docs/deployment.md.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildServer, SERVER_DIST } from './server-build.mjs';

await buildServer({ quiet: true });
await import(pathToFileURL(path.join(SERVER_DIST, 'scripts/migrate.js')).href);
