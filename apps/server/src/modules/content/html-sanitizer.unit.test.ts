import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seedNews, seedNewsTexts } from '../../platform/db/seed-data.ts';
import { decodeEntities, safeUrl, sanitizeHtml } from './html-sanitizer.ts';

const ALLOWED = new Set('p br h1 h2 h3 h4 ul ol li strong b em i u blockquote a img table thead tbody tr th td span code pre'.split(' '));
const ALLOWED_ATTRS: Record<string, string[]> = { a: ['href', 'rel'], img: ['src', 'alt'] };

/** What a browser would find in the output: only allowed tags, allowed attributes and safe URLs. */
function expectHarmless(out: string) {
  const tagRe = /<(\/?)([^\s/>]+)([^>]*)>/g;
  for (let m = tagRe.exec(out); m; m = tagRe.exec(out)) {
    const [, , name, rest] = m;
    expect(ALLOWED.has(name!), `tag <${name}> in ${out}`).toBe(true);
    const attrRe = /([^\s=]+)="([^"]*)"/g;
    const stripped = rest!.replace(attrRe, '').trim();
    expect(stripped, `stray attribute text in ${m[0]}`).toBe('');
    for (let a = attrRe.exec(rest!); a; a = attrRe.exec(rest!)) {
      expect(ALLOWED_ATTRS[name!] ?? [], `attribute ${a[1]} on <${name}>`).toContain(a[1]);
      if (a[1] === 'href' || a[1] === 'src') {
        // eslint-disable-next-line no-control-regex
        const url = decodeEntities(a[2]!).replace(/[\u0000-\u0020]/g, '');
        expect(url).toMatch(/^(https?:\/\/|\/|#)/i);
        expect(url).not.toMatch(/^(javascript|data|vbscript):/i);
      }
      if (a[1] === 'rel') expect(a[2]).toBe('noopener noreferrer nofollow');
    }
  }
  // Text never holds a bare '<' that a browser could read as markup.
  expect(out.replace(tagRe, '')).not.toMatch(/</);
  expect(out).not.toMatch(/<(script|style|iframe|object|embed|svg|math|form|base|meta|link)/i);
}

const clean = (html: string) => {
  const out = sanitizeHtml(html);
  expectHarmless(out);
  expect(sanitizeHtml(out)).toBe(out);
  return out;
};

describe('news HTML sanitizer', () => {
  it('keeps allowed formatting and escapes text', () => {
    expect(clean('<h2>Title</h2><p>a <strong>b</strong> <em>c</em> <u>d</u></p><ul><li>x</li></ul>')).toBe(
      '<h2>Title</h2><p>a <strong>b</strong> <em>c</em> <u>d</u></p><ul><li>x</li></ul>',
    );
    expect(clean('<table><thead><tr><th>A</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table>')).toBe(
      '<table><thead><tr><th>A</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table>',
    );
    expect(clean('<pre><code>x = 1 &lt; 2</code></pre>')).toBe('<pre><code>x = 1 &lt; 2</code></pre>');
    expect(clean('5 > 3 & 2 < 4')).toBe('5 &gt; 3 &amp; 2 &lt; 4');
    expect(clean('caf&eacute; &amp; &#233; &#xE9;')).toBe('caf&eacute; &amp; &#233; &#xE9;');
  });

  it('keeps safe links and images, adding rel to links', () => {
    expect(clean('<a href="https://example.com/a?b=1&amp;c=2" target="_blank" title="t">go</a>')).toBe(
      '<a href="https://example.com/a?b=1&amp;c=2" rel="noopener noreferrer nofollow">go</a>',
    );
    expect(clean('<a href="/news/detail?id=2">n</a><a href="#top">t</a>')).toBe(
      '<a href="/news/detail?id=2" rel="noopener noreferrer nofollow">n</a><a href="#top" rel="noopener noreferrer nofollow">t</a>',
    );
    expect(clean('<img src="/news/1.svg" alt="Chart &quot;A&quot;" width="10">')).toBe('<img src="/news/1.svg" alt="Chart &quot;A&quot;">');
    expect(clean('<IMG SRC="HTTPS://cdn.example/x.png">')).toBe('<img src="HTTPS://cdn.example/x.png">');
    expect(clean('<img src=" /news/a b.png\n">')).toBe('<img src="/news/a%20b.png">');
  });

  it('drops scripts, styles and embedded documents with their content', () => {
    expect(clean('<p>a</p><script>alert(1)</script><p>b</p>')).toBe('<p>a</p><p>b</p>');
    expect(clean('<SCRIPT SRC=http://xss.example/xss.js></SCRIPT>ok')).toBe('ok');
    expect(clean('<script>document.write("</scr" + "ipt>")</script>ok')).toBe('ok');
    expect(clean('<style>body{background:url(javascript:alert(1))}</style>ok')).toBe('ok');
    expect(clean('<iframe src="javascript:alert(1)"></iframe>ok')).toBe('ok');
    expect(clean('<object data="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=="><p>x</p></object>ok')).toBe('ok');
    expect(clean('<embed src="javascript:alert(1)">ok')).toBe('ok');
    expect(clean('<svg><svg onload=alert(1)></svg><p>in</p></svg>ok')).toBe('ok');
    expect(clean('<svg/onload=alert(1)>inside')).toBe('');
    expect(clean('<svg/>ok')).toBe('ok');
    expect(clean('<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></math>ok')).toBe('ok');
    expect(clean('<template><script>alert(1)</script></template>ok')).toBe('ok');
    expect(clean('<textarea><script>alert(1)</script></textarea>ok')).toBe('ok');
    expect(clean('<noscript><p title="</noscript><img src=x onerror=alert(1)>">')).toBe('');
    expect(clean('<plaintext><script>alert(1)</script>')).toBe('');
    expect(clean('<scr<script>ipt>alert(1)</script>')).toBe('ipt&gt;alert(1)');
  });

  it('removes comments, doctypes and processing instructions', () => {
    expect(clean('a<!-- <script>alert(1)</script> -->b')).toBe('ab');
    expect(clean('<!--[if gte IE 4]><SCRIPT>alert("XSS");</SCRIPT><![endif]-->ok')).toBe('ok');
    expect(clean('<!DOCTYPE html><?xml version="1.0"?>ok<!-- unterminated <img src=x onerror=alert(1)>')).toBe('ok');
    expect(clean('a</ x onclick=alert(1)>b')).toBe('ab');
  });

  it('drops event handlers, styles and every attribute not allowed', () => {
    expect(clean('<p onclick="alert(1)" style="color:red" class="c" id="i">x</p>')).toBe('<p>x</p>');
    expect(clean('<img src="/a.png" onerror="alert(1)">')).toBe('<img src="/a.png">');
    expect(clean('<img/src="/a.png"/onerror=alert(1)>')).toBe('<img src="/a.png">');
    expect(clean('<a href="/x" onmouseover=alert(1)>x</a>')).toBe('<a href="/x" rel="noopener noreferrer nofollow">x</a>');
    expect(clean('<IMG """><SCRIPT>alert("XSS")</SCRIPT>">')).toBe('"&gt;');
    expect(clean('<img src="/a.png" alt="x" onerror="alert(1)" alt="y">')).toBe('<img src="/a.png" alt="x">');
    expect(clean('<span style="background:url(javascript:alert(1))">s</span>')).toBe('<span>s</span>');
    expect(clean('<div onclick=alert(1)><b>kept</b></div>')).toBe('<b>kept</b>');
    expect(clean('<body onload=alert(1)>x</body>')).toBe('x');
    expect(clean('<input autofocus onfocus=alert(1)><button formaction=javascript:alert(1)>b</button>')).toBe('b');
    expect(
      clean('<meta http-equiv="refresh" content="0;url=javascript:alert(1)"><base href="javascript:/"><link rel=stylesheet href=x>ok'),
    ).toBe('ok');
  });

  it('refuses javascript:, data: and vbscript: URLs however they are disguised', () => {
    const vectors = [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      'jav\tascript:alert(1)',
      'jav&#x09;ascript:alert(1)',
      'jav&#x0A;ascript:alert(1)',
      'jav&#x0D;ascript:alert(1)',
      '&#14;  javascript:alert(1)',
      '&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)',
      '&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058alert(1)',
      '&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A;alert(1)',
      'javascript&colon;alert(1)',
      'javascript&#58alert(1)',
      'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
      'DATA:image/svg+xml,<svg onload=alert(1)>',
      'vbscript:msgbox(1)',
      'livescript:alert(1)',
      'mocha:alert(1)',
      'java\0script:alert(1)',
      'java\u0001script:alert(1)',
      'java script:alert(1)',
      '/ok\u0085',
      '\\\\evil.example\\x',
      'x',
      '',
    ];
    for (const v of vectors) {
      for (const quote of ['"', "'", '']) {
        const a = clean(`<a href=${quote}${v}${quote}>link</a>`);
        expect(a, v).not.toMatch(/<a/);
        const img = clean(`<img src=${quote}${v}${quote}>`);
        expect(img, v).not.toMatch(/<img/);
      }
      expect(safeUrl(v, 'href'), v).toBeNull();
    }
  });

  it('handles malformed markup without letting anything through', () => {
    expect(clean('<<SCRIPT>alert("XSS");//<</SCRIPT>')).toBe('&lt;');
    expect(clean('<p>unclosed <b>bold <i>it')).toBe('<p>unclosed <b>bold <i>it</i></b></p>');
    expect(clean('<b><i>x</b></i>y')).toBe('<b><i>x</i></b>y');
    expect(clean('</p></div>text')).toBe('<p></p>text');
    expect(clean('<img src="/a.png"')).toBe('');
    expect(clean('ok<p')).toBe('ok');
    expect(clean('<a href="/x>broken')).toBe('');
    expect(clean('<scr\0ipt>alert(1)</script>')).toBe('');
    // As in a browser, a link start tag closes the open link; the inner link's URL is refused, its text stays.
    expect(clean('<a href="/ok"><a href="javascript:alert(1)">in</a></a>')).toBe('<a href="/ok" rel="noopener noreferrer nofollow"></a>in');
    // '<!>' is an empty comment to a browser: nothing is shown.
    expect(clean('x <3 y <<< >>> & <!>')).toBe('x &lt;3 y &lt;&lt;&lt; &gt;&gt;&gt; &amp; ');
    expect(clean('<p>' + '<b>'.repeat(200) + 'deep')).toMatch(/deep/);
  });

  it('is harmless and idempotent for any input built from dangerous pieces', () => {
    const piece = fc.constantFrom(
      '<',
      '>',
      '"',
      "'",
      '=',
      '/',
      ' ',
      '\t',
      '&',
      ';',
      '#',
      '&#',
      'x',
      '\0',
      '<!--',
      '-->',
      '<!',
      '</',
      'script',
      'SCRIPT',
      'style',
      'svg',
      'math',
      'iframe',
      'a',
      'img',
      'p',
      'b',
      'br',
      'td',
      'noscript',
      'textarea',
      'title',
      'plaintext',
      ' href=',
      ' src=',
      ' onerror=',
      ' onclick=',
      ' style=',
      'javascript:',
      'java&#x09;script:',
      '&#106;',
      'data:',
      'vbscript:',
      'alert(1)',
      'https://x.example/',
      '/path',
      '#frag',
      '&amp;',
      '&lt;',
      '&quot;',
      '\n',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        clean(pieces.join(''));
      }),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (s) => void clean(s)),
      { numRuns: 2000 },
    );
  });

  it('sanitizes a 200 KB document in linear time', () => {
    const unit = '<p onclick=x>text <a href="javascript:1">l</a><script>s</script><b>b<!-- c --></b><img src=/i.png></p>';
    const big = unit.repeat(Math.ceil(200_000 / unit.length));
    const started = performance.now();
    const out = sanitizeHtml(big);
    expect(performance.now() - started).toBeLessThan(500);
    expect(out).toBe('<p>text l<b>b</b><img src="/i.png"></p>'.repeat(Math.ceil(200_000 / unit.length)));
    expect(sanitizeHtml('<p' + ' a=b'.repeat(50_000) + '>x').length).toBeLessThan(20);
    expect(sanitizeHtml('<svg>'.repeat(20_000) + 'x')).toBe('');
  });

  it('leaves the seeded news unchanged in every language: it is already clean', () => {
    for (const n of seedNews) expect(sanitizeHtml(n.content)).toBe(n.content);
    for (const [lang, texts] of Object.entries(seedNewsTexts)) for (const n of texts) expect(sanitizeHtml(n.content), lang).toBe(n.content);
  });
});
