import DOMPurify, { type Config } from 'dompurify';

/** The server's news allow-list: tags, and the only attributes kept (rel and target are set on links here). */
const NEWS_TAGS = 'p br h1 h2 h3 h4 ul ol li strong b em i u blockquote a img table thead tbody tr th td span code pre'.split(' ');
const NEWS_ATTRIBUTES = ['href', 'src', 'alt'];
const CONFIG: Config = { ALLOWED_TAGS: NEWS_TAGS, ALLOWED_ATTR: NEWS_ATTRIBUTES, RETURN_TRUSTED_TYPE: false };
const SAFE_DATA_IMAGE = /^data:image\/(png|jpe?g|gif|webp);base64,/;

/** True for addresses that run code: javascript:, vbscript:, and data: other than plain images. */
export function isDangerousUrl(value: string, attribute: string): boolean {
  // Browsers ignore control characters and whitespace inside the scheme ("java\tscript:").
  const compact = Array.from(value)
    .filter((ch) => ch.charCodeAt(0) > 0x20 && (ch.charCodeAt(0) < 0x7f || ch.charCodeAt(0) > 0x9f))
    .join('')
    .toLowerCase();
  if (compact.startsWith('javascript:') || compact.startsWith('vbscript:')) return true;
  if (compact.startsWith('data:')) return !(attribute === 'src' && SAFE_DATA_IMAGE.test(compact));
  return attribute === 'srcset' && /(javascript|vbscript|data):/.test(compact);
}

let purifier: ReturnType<typeof DOMPurify> | undefined;

/** A DOMPurify instance of its own, so these hooks never apply to other callers. */
function newsPurifier(): ReturnType<typeof DOMPurify> {
  if (purifier) return purifier;
  purifier = DOMPurify(window);
  purifier.addHook('uponSanitizeAttribute', (_node, data) => {
    if ((data.attrName === 'href' || data.attrName === 'src') && isDangerousUrl(data.attrValue, data.attrName)) data.keepAttr = false;
  });
  purifier.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A' && node.hasAttribute('href')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer nofollow');
    }
  });
  return purifier;
}

/**
 * Defence in depth for news HTML the server has already sanitized: DOMPurify keeps only the news
 * allow-list of tags and attributes and drops script URLs; links open in a new tab without referrer.
 */
export function stripDangerousHtml(html: string): string {
  if (typeof window === 'undefined') return '';
  return newsPurifier().sanitize(html, CONFIG);
}
