import { randomInt } from 'node:crypto';
import sharp from 'sharp';

/** Characters that cannot be mistaken for one another (no I/1, O/0). */
export const CAPTCHA_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A stroke font on a 4 x 6 grid: drawn as paths, so no font needs to be installed on the server. */
const GLYPHS: Record<string, string[]> = {
  A: ['0,6 2,0 4,6', '0.8,3.8 3.2,3.8'],
  B: ['0,0 0,6 3,6 4,5 4,4 3,3 0,3', '0,0 3,0 4,1 4,2 3,3'],
  C: ['4,1 3,0 1,0 0,1 0,5 1,6 3,6 4,5'],
  D: ['0,0 0,6 2.5,6 4,4.5 4,1.5 2.5,0 0,0'],
  E: ['4,0 0,0 0,6 4,6', '0,3 3,3'],
  F: ['4,0 0,0 0,6', '0,3 3,3'],
  G: ['4,1 3,0 1,0 0,1 0,5 1,6 3,6 4,5 4,3 2,3'],
  H: ['0,0 0,6', '4,0 4,6', '0,3 4,3'],
  J: ['4,0 4,5 3,6 1,6 0,5'],
  K: ['0,0 0,6', '4,0 0,3.5', '1.3,2.7 4,6'],
  L: ['0,0 0,6 4,6'],
  M: ['0,6 0,0 2,3 4,0 4,6'],
  N: ['0,6 0,0 4,6 4,0'],
  P: ['0,6 0,0 3,0 4,1 4,2 3,3 0,3'],
  Q: ['1,0 3,0 4,1 4,5 3,6 1,6 0,5 0,1 1,0', '2.5,4.5 4,6.3'],
  R: ['0,6 0,0 3,0 4,1 4,2 3,3 0,3', '2,3 4,6'],
  S: ['4,1 3,0 1,0 0,1 0,2 1,3 3,3 4,4 4,5 3,6 1,6 0,5'],
  T: ['0,0 4,0', '2,0 2,6'],
  U: ['0,0 0,5 1,6 3,6 4,5 4,0'],
  V: ['0,0 2,6 4,0'],
  W: ['0,0 1,6 2,2.5 3,6 4,0'],
  X: ['0,0 4,6', '4,0 0,6'],
  Y: ['0,0 2,3 4,0', '2,3 2,6'],
  Z: ['0,0 4,0 0,6 4,6'],
  '2': ['0,1 1,0 3,0 4,1 4,2 0,6 4,6'],
  '3': ['0,1 1,0 3,0 4,1 4,2 3,3 4,4 4,5 3,6 1,6 0,5', '1.5,3 3,3'],
  '4': ['3,6 3,0 0,4 4,4'],
  '5': ['4,0 0,0 0,3 3,3 4,4 4,5 3,6 0,6'],
  '6': ['4,1 3,0 1,0 0,1 0,5 1,6 3,6 4,5 4,4 3,3 0,3'],
  '7': ['0,0 4,0 1.5,6'],
  '8': ['1,3 0,2 0,1 1,0 3,0 4,1 4,2 3,3 1,3 0,4 0,5 1,6 3,6 4,5 4,4 3,3'],
  '9': ['4,3 1,3 0,2 0,1 1,0 3,0 4,1 4,5 3,6 1,6 0,5'],
};

const WIDTH = 150;
const HEIGHT = 50;
const UNIT = 5;
const rnd = (min: number, max: number) => min + (randomInt(0, 10_000) / 10_000) * (max - min);
const color = (lo: number, hi: number) => `rgb(${randomInt(lo, hi)},${randomInt(lo, hi)},${randomInt(lo, hi)})`;

export function randomCaptchaText(): string {
  const length = randomInt(4, 6);
  return Array.from({ length }, () => CAPTCHA_ALPHABET[randomInt(CAPTCHA_ALPHABET.length)]).join('');
}

function glyphSvg(ch: string, cx: number): string {
  const angle = rnd(-22, 22).toFixed(1);
  const scale = rnd(0.9, 1.15).toFixed(2);
  const cy = HEIGHT / 2 + rnd(-4, 4);
  const paths = GLYPHS[ch]!.map((line) => {
    const pts = line.split(' ').map((p) => {
      const [x, y] = p.split(',').map(Number) as [number, number];
      return `${((x - 2) * UNIT + rnd(-0.6, 0.6)).toFixed(1)},${((y - 3) * UNIT + rnd(-0.6, 0.6)).toFixed(1)}`;
    });
    return `<polyline points="${pts.join(' ')}"/>`;
  });
  return `<g transform="translate(${cx.toFixed(1)},${cy.toFixed(1)}) rotate(${angle}) scale(${scale})" stroke="${color(10, 110)}" stroke-width="${rnd(2.2, 3).toFixed(1)}" fill="none" stroke-linecap="round" stroke-linejoin="round">${paths.join('')}</g>`;
}

function noiseSvg(): string {
  const curves = Array.from({ length: 5 }, () => {
    const d = `M${rnd(0, 20).toFixed(0)},${rnd(5, 45).toFixed(0)} C${rnd(30, 70).toFixed(0)},${rnd(0, 50).toFixed(0)} ${rnd(80, 120).toFixed(0)},${rnd(0, 50).toFixed(0)} ${rnd(130, 150).toFixed(0)},${rnd(5, 45).toFixed(0)}`;
    return `<path d="${d}" stroke="${color(60, 180)}" stroke-width="${rnd(1, 2).toFixed(1)}" fill="none"/>`;
  });
  const dots = Array.from(
    { length: 60 },
    () =>
      `<circle cx="${rnd(0, WIDTH).toFixed(0)}" cy="${rnd(0, HEIGHT).toFixed(0)}" r="${rnd(0.5, 1.6).toFixed(1)}" fill="${color(40, 200)}"/>`,
  );
  return curves.join('') + dots.join('');
}

/** The text drawn with rotation, jitter, curves and dots, as a PNG data URL. */
export async function renderCaptcha(text: string): Promise<string> {
  const step = (WIDTH - 30) / text.length;
  const glyphs = [...text].map((ch, i) => glyphSvg(ch, 15 + step * (i + 0.5)));
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}"><rect width="100%" height="100%" fill="${color(225, 255)}"/>${noiseSvg()}${glyphs.join('')}</svg>`;
  const png = await sharp(Buffer.from(svg)).png().toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}
