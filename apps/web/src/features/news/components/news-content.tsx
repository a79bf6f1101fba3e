import { useMemo } from 'react';
import { stripDangerousHtml } from './strip-dangerous-html';

const PROSE =
  'break-words leading-relaxed text-text [&_a]:text-accent [&_a]:underline [&_blockquote]:border-s-2 [&_blockquote]:border-border [&_blockquote]:ps-3 [&_blockquote]:text-muted [&_h1]:my-3 [&_h1]:text-xl [&_h1]:font-semibold [&_h2]:my-3 [&_h2]:text-lg [&_h2]:font-semibold [&_h3]:my-2 [&_h3]:font-semibold [&_img]:my-3 [&_img]:h-auto [&_img]:max-w-full [&_img]:rounded-lg [&_li]:my-1 [&_ol]:list-decimal [&_ol]:ps-5 [&_p]:my-3 [&_table]:my-3 [&_table]:block [&_table]:overflow-x-auto [&_td]:border [&_td]:border-border [&_td]:px-2 [&_td]:py-1 [&_th]:border [&_th]:border-border [&_th]:px-2 [&_th]:py-1 [&_ul]:list-disc [&_ul]:ps-5';

/**
 * The body of a news article. The server sanitizes news HTML (allow-listed tags, no scripts,
 * no event handlers, no javascript: links) when it is saved and again when it is served; this
 * component passes it through DOMPurify with the same allow-list before inserting it.
 * It is the only place in the app where server HTML is inserted as markup.
 */
export function NewsContent({ html }: { html: string }) {
  const safe = useMemo(() => stripDangerousHtml(html), [html]);
  return <div className={PROSE} dangerouslySetInnerHTML={{ __html: safe }} />;
}
