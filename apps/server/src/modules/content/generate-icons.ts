/**
 * One-off: writes the web app icons (public/icons/icon-192.png, icon-512.png) from the SVG below.
 * Run again after changing the artwork: `npx tsx apps/server/src/modules/content/generate-icons.ts`.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

/** Full-bleed background with the artwork inside the central safe zone, so one file serves "any" and "maskable". */
const ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 512 512">
<rect width="512" height="512" fill="#0b0e11"/>
<g stroke-linecap="round">
<line x1="168" y1="236" x2="168" y2="388" stroke="#0ecb81" stroke-width="12"/>
<rect x="140" y="268" width="56" height="88" rx="8" fill="#0ecb81"/>
<line x1="256" y1="176" x2="256" y2="332" stroke="#f6465d" stroke-width="12"/>
<rect x="228" y="204" width="56" height="96" rx="8" fill="#f6465d"/>
<line x1="344" y1="120" x2="344" y2="292" stroke="#f0b90b" stroke-width="12"/>
<rect x="316" y="148" width="56" height="112" rx="8" fill="#f0b90b"/>
</g>
</svg>`;

const ICON_SIZES = [192, 512] as const;

const outDir = path.resolve(import.meta.dirname, '../../../public/icons');
fs.mkdirSync(outDir, { recursive: true });
for (const size of ICON_SIZES) {
  const file = path.join(outDir, `icon-${size}.png`);
  await sharp(Buffer.from(ICON_SVG)).resize(size, size).png({ compressionLevel: 9 }).toFile(file);
  process.stdout.write(`${file}\n`);
}
