/** Elements dropped with everything inside: scripts, embedded documents, and raw-text elements used to smuggle markup. */
const DROPPED_ELEMENTS =
  'script,style,iframe,frame,frameset,object,embed,applet,link,meta,base,form,template,noscript,noembed,noframes,xmp,plaintext,svg,math';
/** Attributes that hold an address the browser may follow or load. */
const URL_ATTRIBUTES = new Set(['href', 'src', 'srcset', 'action', 'formaction', 'poster', 'background', 'xlink:href', 'cite', 'longdesc', 'data']);
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

/**
 * Defence in depth for news HTML the server has already sanitized: parses it in an inert document
 * (nothing runs or loads there) and removes scripts, event handler attributes and script URLs.
 */
export function stripDangerousHtml(html: string): string {
  if (typeof DOMParser === 'undefined') return '';
  const doc = new DOMParser().parseFromString(html, 'text/html');
  for (const element of doc.body.querySelectorAll(DROPPED_ELEMENTS)) element.remove();
  for (const element of doc.body.querySelectorAll('*')) {
    for (const { name, value } of [...element.attributes]) {
      const attribute = name.toLowerCase();
      if (attribute.startsWith('on') || attribute === 'srcdoc' || (attribute === 'style' && /expression\s*\(|javascript:|behavior\s*:/i.test(value))) {
        element.removeAttribute(name);
      } else if (URL_ATTRIBUTES.has(attribute) && isDangerousUrl(value, attribute)) {
        element.removeAttribute(name);
      }
    }
    if (element.tagName === 'A' && element.hasAttribute('href')) {
      element.setAttribute('target', '_blank');
      element.setAttribute('rel', 'noopener noreferrer nofollow');
    }
  }
  return doc.body.innerHTML;
}
