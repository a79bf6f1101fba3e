import { describe, expect, it } from 'vitest';
import { isDangerousUrl } from './strip-dangerous-html';

// The DOM part runs in the browser test (e2e/content.test.ts); the URL rule is pure.
describe('isDangerousUrl', () => {
  it('refuses script schemes, also when disguised', () => {
    expect(isDangerousUrl('javascript:alert(1)', 'href')).toBe(true);
    expect(isDangerousUrl(' JaVa\tScRiPt:alert(1)', 'href')).toBe(true);
    expect(isDangerousUrl('java\u0000script:alert(1)', 'href')).toBe(true);
    expect(isDangerousUrl('vbscript:msgbox(1)', 'href')).toBe(true);
    expect(isDangerousUrl('data:text/html;base64,PHNjcmlwdD4=', 'href')).toBe(true);
    expect(isDangerousUrl('data:text/html,<script>alert(1)</script>', 'src')).toBe(true);
    expect(isDangerousUrl('a.png 1x, javascript:alert(1) 2x', 'srcset')).toBe(true);
  });

  it('keeps ordinary links and plain inline images', () => {
    expect(isDangerousUrl('https://example.com/a?b=1', 'href')).toBe(false);
    expect(isDangerousUrl('/uploads/x.png', 'src')).toBe(false);
    expect(isDangerousUrl('mailto:help@example.com', 'href')).toBe(false);
    expect(isDangerousUrl('data:image/png;base64,iVBORw0KGgo=', 'src')).toBe(false);
    expect(isDangerousUrl('a.png 1x, b.png 2x', 'srcset')).toBe(false);
  });
});
