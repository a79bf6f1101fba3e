/** Writes the OpenAPI document built from the endpoint table to docs/openapi.json (no server is started). */
import fs from 'node:fs';
import { openApiText } from '../packages/contract/src/openapi.ts';

const target = new URL('../docs/openapi.json', import.meta.url);
fs.writeFileSync(target, openApiText());
console.log('wrote docs/openapi.json');
