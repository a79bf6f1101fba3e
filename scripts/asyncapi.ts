/** Writes docs/asyncapi.json, the AsyncAPI 3 description of the websocket, from the contract's socket declarations. */
import fs from 'node:fs';
import { asyncApiDocument } from '../packages/contract/src/asyncapi.ts';

const target = new URL('../docs/asyncapi.json', import.meta.url);
fs.writeFileSync(target, `${JSON.stringify(asyncApiDocument(), null, 2)}\n`);
console.log('wrote docs/asyncapi.json');
