/** Writes what is generated from the socket's declarations: the web app's frame shapes and the README's table. */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { renderShapesModule, withReadmeTable } from '../packages/contract/src/socket-docs.ts';

const root = new URL('../', import.meta.url);
const shapes = new URL('packages/contract/src/push-shapes.ts', root);
const filepath = fileURLToPath(shapes);
fs.writeFileSync(shapes, await prettier.format(renderShapesModule(), { ...(await prettier.resolveConfig(filepath)), filepath }));
const readme = new URL('README.md', root);
fs.writeFileSync(readme, withReadmeTable(fs.readFileSync(readme, 'utf8')));
console.log('wrote packages/contract/src/push-shapes.ts and the README table of socket messages');
