/**
 * The console's one policy for URLs and colours that come from the wire
 * (src/emulator/console/app/render-policy.ts); Chromium checks the drawn
 * page in test/browser/console/hostile-content.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { cssColor, linkHref, mediaSrc } from '../../../src/emulator/console/app/render-policy.js';

const ORIGIN = 'http://127.0.0.1:7350';

const SCRIPTED = ['javascript:alert(1)', ' JavaScript:alert(1)', 'java\tscript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'data:image/svg+xml,<svg onload=alert(1)>', 'blob:http://127.0.0.1:7350/0f', 'vbscript:x', 'file:///etc/passwd', 'about:blank'];

describe("the console's render policy", () => {
  it('links only to http(s); text without a scheme is taken as https', () => {
    expect(linkHref('https://x.example/a?b=1')).toBe('https://x.example/a?b=1');
    expect(linkHref('  http://x.example  ')).toBe('http://x.example/');
    expect(linkHref('x.example')).toBe('https://x.example/');
    for (const url of [...SCRIPTED, '', '   ', undefined]) expect([url, linkHref(url)]).toEqual([url, undefined]);
  });

  it("shows pictures of the emulator's own origin only: nothing from outside, nothing inline", () => {
    expect(mediaSrc(`${ORIGIN}/media/a.svg`, ORIGIN)).toBe(`${ORIGIN}/media/a.svg`);
    expect(mediaSrc('/media/a.svg', ORIGIN)).toBe(`${ORIGIN}/media/a.svg`);
    for (const url of [...SCRIPTED, 'https://cdn.example/a.png', 'http://127.0.0.1:9999/a.png', '//cdn.example/a.png', '', undefined]) expect([url, mediaSrc(url, ORIGIN)]).toEqual([url, undefined]);
  });

  it('takes hex colours (string or number) and colour names, never CSS that could load a URL', () => {
    expect(cssColor('#e67e22')).toBe('#e67e22');
    expect(cssColor('e67e22')).toBe('#e67e22');
    expect(cssColor('#abc')).toBe('#abc');
    expect(cssColor(0xe67e22)).toBe('#e67e22');
    expect(cssColor('Teal')).toBe('teal');
    for (const color of ['url(http://evil.example/x.png)', 'red;background:url(x)', '#e67e22; background-image: url(x)', 'rgb(1,2,3)', 'var(--x)', 'expression(alert(1))', '#12345', -1, 1.5, null, {}, '']) expect([color, cssColor(color)]).toEqual([color, undefined]);
  });
});
