/**
 * A strict allow-list HTML sanitizer for news content. The output is built only from allowed tags
 * with validated, re-escaped attributes and escaped text, so it is safe whatever the input is, and
 * sanitizing twice gives the same result.
 */

const ALLOWED_TAGS = new Set(
  'p br h1 h2 h3 h4 ul ol li strong b em i u blockquote a img table thead tbody tr th td span code pre'.split(' '),
);
const VOID_TAGS = new Set(['br', 'img']);

/** Browsers read the content of these as raw text up to the matching end tag: dropped with it. */
const RAW_TEXT_DROPPED = new Set(['script', 'style', 'iframe', 'textarea', 'title', 'xmp', 'noembed', 'noframes', 'noscript']);
/** Elements dropped with everything inside them (their content is parsed as markup). */
const NESTED_DROPPED = new Set(['object', 'svg', 'math', 'template', 'applet', 'head', 'select', 'frameset']);

const MAX_DEPTH = 64;
export const REL_ADDED = 'noopener noreferrer nofollow';

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  colon: ':',
  tab: '\t',
  newline: '\n',
  sol: '/',
  bsol: '\\',
  lpar: '(',
  rpar: ')',
  period: '.',
  comma: ',',
  excl: '!',
  num: '#',
  percnt: '%',
  plus: '+',
  equals: '=',
  quest: '?',
  commat: '@',
  lsqb: '[',
  rsqb: ']',
  lowbar: '_',
  semi: ';',
  hyphen: '-',
};

const codePointOf = (n: number): string => (n === 0 || n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff) ? '\ufffd' : String.fromCodePoint(n));

/** Decodes character references as a browser would in an attribute value (enough for every URL check). */
export function decodeEntities(s: string): string {
  return s.replace(
    /&(?:#[xX]([0-9a-fA-F]{1,8});?|#(\d{1,10});?|([a-zA-Z][a-zA-Z0-9]{1,31});)/g,
    (whole, hex?: string, decimal?: string, name?: string) => {
      if (hex) return codePointOf(parseInt(hex, 16));
      if (decimal) return codePointOf(parseInt(decimal, 10));
      return NAMED_ENTITIES[name!.toLowerCase()] ?? whole;
    },
  );
}

const escapeAttr = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&#39;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Text keeps well-formed character references (they cannot make markup); every other & and all < > are escaped. */
const escapeText = (s: string) =>
  s
    .replace(/&(?!(?:[a-zA-Z][a-zA-Z0-9]{1,31}|#\d{1,7}|#[xX][0-9a-fA-F]{1,6});)/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');

/**
 * The one URL rule: http(s) absolute, site-relative '/...' or (links only) a '#fragment'. As browsers
 * do, surrounding control characters and spaces are trimmed and tabs and newlines removed first, so
 * ' java\tscript:' cannot slip through; any other control character refuses the URL.
 */
export function safeUrl(raw: string, kind: 'href' | 'src'): string | null {
  const url = decodeEntities(raw)
    // eslint-disable-next-line no-control-regex
    .replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '')
    .replace(/[\t\n\r]/g, '')
    .replace(/ /g, '%20');
  // eslint-disable-next-line no-control-regex
  if (!url || url.length > 2048 || /[\u0000-\u001f\u007f-\u009f]/.test(url)) return null;
  if (/^https?:\/\/[^/\\]/i.test(url)) return url;
  if (url.startsWith('/')) return url;
  if (kind === 'href' && url.startsWith('#')) return url;
  return null;
}

interface Tag {
  name: string;
  attrs: Map<string, string>;
  selfClosing: boolean;
  /** False when the input ended inside the tag: browsers drop such a tag. */
  closed: boolean;
  end: number;
}

const isTagStart = (c: string | undefined) => c !== undefined && /[a-zA-Z]/.test(c);
const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f';

/** Reads a tag from the character after its name to its '>'; `i` is where the name starts. */
function readTag(html: string, i: number): Tag {
  let j = i;
  while (j < html.length && !isSpace(html[j]) && html[j] !== '/' && html[j] !== '>') j++;
  const name = html.slice(i, j).toLowerCase();
  const attrs = new Map<string, string>();
  let selfClosing = false;
  while (j < html.length) {
    while (j < html.length && (isSpace(html[j]) || html[j] === '/')) {
      selfClosing = html[j] === '/';
      j++;
    }
    if (j >= html.length || html[j] === '>') break;
    selfClosing = false;
    const nameStart = j;
    j++;
    while (j < html.length && !isSpace(html[j]) && html[j] !== '/' && html[j] !== '>' && html[j] !== '=') j++;
    const attrName = html.slice(nameStart, j).toLowerCase();
    while (isSpace(html[j])) j++;
    let value = '';
    if (html[j] === '=') {
      j++;
      while (isSpace(html[j])) j++;
      const quote = html[j];
      if (quote === '"' || quote === "'") {
        const close = html.indexOf(quote, j + 1);
        const stop = close < 0 ? html.length : close;
        value = html.slice(j + 1, stop);
        j = stop + 1;
      } else {
        const start = j;
        while (j < html.length && !isSpace(html[j]) && html[j] !== '>') j++;
        value = html.slice(start, j);
      }
    }
    if (!attrs.has(attrName)) attrs.set(attrName, value);
  }
  return { name, attrs, selfClosing, closed: j < html.length, end: Math.min(j + 1, html.length) };
}

/** Index just past the end tag closing `name`, counting nested tags of the same name; the input's end if none. */
function skipElement(html: string, name: string, from: number, nested: boolean): number {
  const closeRe = new RegExp(`</${name}(?=[\\s/>]|$)`, 'gi');
  if (!nested) {
    closeRe.lastIndex = from;
    const m = closeRe.exec(html);
    if (!m) return html.length;
    const gt = html.indexOf('>', m.index);
    return gt < 0 ? html.length : gt + 1;
  }
  const tagRe = new RegExp(`<(/?)${name}(?=[\\s/>]|$)`, 'gi');
  tagRe.lastIndex = from;
  let depth = 1;
  for (let m = tagRe.exec(html); m; m = tagRe.exec(html)) {
    depth += m[1] ? -1 : 1;
    if (depth === 0) {
      const gt = html.indexOf('>', m.index);
      return gt < 0 ? html.length : gt + 1;
    }
  }
  return html.length;
}

function renderStartTag(tag: Tag): string | null {
  if (tag.name === 'a') {
    const href = safeUrl(tag.attrs.get('href') ?? '', 'href');
    return href === null ? null : `<a href="${escapeAttr(href)}" rel="${REL_ADDED}">`;
  }
  if (tag.name === 'img') {
    const src = safeUrl(tag.attrs.get('src') ?? '', 'src');
    if (src === null) return null;
    const alt = tag.attrs.has('alt') ? ` alt="${escapeText(tag.attrs.get('alt')!).replace(/"/g, '&quot;').replace(/'/g, '&#39;')}"` : '';
    return `<img src="${escapeAttr(src)}"${alt}>`;
  }
  return `<${tag.name}>`;
}

/** Sanitizes untrusted HTML to the news allow-list (see the module comment). */
export function sanitizeHtml(input: string): string {
  const html = input.replace(/\0/g, '');
  const out: string[] = [];
  const open: string[] = [];
  let text = 0;
  let i = 0;
  const flushText = (to: number) => {
    if (to > text) out.push(escapeText(html.slice(text, to)));
  };
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) break;
    const next = html[lt + 1];
    if (next === '!' || next === '?') {
      flushText(lt);
      if (html.startsWith('<!--', lt)) {
        const close = html.indexOf('-->', lt + 4);
        i = close < 0 ? html.length : close + 3;
      } else {
        const gt = html.indexOf('>', lt);
        i = gt < 0 ? html.length : gt + 1;
      }
      text = i;
      continue;
    }
    const closing = next === '/';
    if (!isTagStart(closing ? html[lt + 2] : next)) {
      if (closing && html[lt + 2] !== undefined) {
        // '</' not followed by a letter is a bogus comment in HTML: dropped up to '>'.
        flushText(lt);
        const gt = html.indexOf('>', lt);
        i = text = gt < 0 ? html.length : gt + 1;
      } else {
        i = lt + 1;
      }
      continue;
    }
    flushText(lt);
    const tag = readTag(html, lt + (closing ? 2 : 1));
    i = text = tag.end;
    if (!tag.closed) break;
    if (closing) {
      const at = open.lastIndexOf(tag.name);
      if (at >= 0) while (open.length > at) out.push(`</${open.pop()}>`);
      continue;
    }
    if (tag.name === 'plaintext') {
      i = text = html.length;
      break;
    }
    if (RAW_TEXT_DROPPED.has(tag.name) || NESTED_DROPPED.has(tag.name)) {
      if (!tag.selfClosing || RAW_TEXT_DROPPED.has(tag.name)) i = text = skipElement(html, tag.name, tag.end, NESTED_DROPPED.has(tag.name));
      continue;
    }
    if (!ALLOWED_TAGS.has(tag.name) || open.length >= MAX_DEPTH) continue;
    const rendered = renderStartTag(tag);
    if (rendered === null) continue;
    out.push(rendered);
    if (!VOID_TAGS.has(tag.name)) open.push(tag.name);
  }
  flushText(html.length);
  while (open.length) out.push(`</${open.pop()}>`);
  return out.join('');
}
