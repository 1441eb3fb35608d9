// What every page writes through: HTML escaping, JSON-LD that no value can break out of, links that are http(s) only.
import { describe, expect, it } from 'vitest';
import { escapeHtml, httpUrl, jsonLdScript, renderPage } from '../../src/site/site.layout.js';

describe('site layout', () => {
  it('escapes the five characters that can end HTML text or a quoted attribute', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;');
    expect(escapeHtml(42)).toBe('42');
  });

  it('writes JSON-LD with <, >, & and U+2028/2029 as \\u escapes: one closing tag, the same values parsed back', () => {
    const data = { name: '</script><script>alert(1)</script>', note: '<!-- & -->', line: 'a\u2028b\u2029c' };
    const script = jsonLdScript(data);
    expect(script.match(/<\/script>/g)).toHaveLength(1);
    expect(script).not.toMatch(/<!--|\u2028|\u2029/);
    const json = /^<script type="application\/ld\+json">(.*)<\/script>$/s.exec(script)![1];
    expect(json).toContain('\\u003c/script\\u003e');
    expect(JSON.parse(json)).toEqual(data);
  });

  it('links only to absolute http(s) URLs', () => {
    expect(httpUrl('https://www.example.com/a?b=1')).toBe('https://www.example.com/a?b=1');
    expect(httpUrl('http://localhost:4000/')).toBe('http://localhost:4000/');
    for (const bad of ['javascript:alert(1)', 'data:text/html,x', '/relative', 'not a url', '', null, undefined]) expect(httpUrl(bad)).toBeNull();
  });

  it('a page’s head carries the Open Graph tags, the canonical link and the icons, all escaped', () => {
    const html = renderPage(
      {
        title: 'A "quoted" <title>',
        description: 'D & d',
        canonical: 'https://x.example/venues/a',
        image: 'https://x.example/i.svg',
        ogType: 'place',
      },
      '<p>body</p>',
    );
    expect(html).toContain('<title>A &quot;quoted&quot; &lt;title&gt;</title>');
    expect(html).toContain('<meta property="og:title" content="A &quot;quoted&quot; &lt;title&gt;">');
    expect(html).toContain('<meta property="og:description" content="D &amp; d">');
    expect(html).toContain('<meta property="og:url" content="https://x.example/venues/a">');
    expect(html).toContain('<meta property="og:image" content="https://x.example/i.svg">');
    expect(html).toContain('<meta property="og:type" content="place">');
    expect(html).toContain('<link rel="canonical" href="https://x.example/venues/a">');
    expect(html).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
    expect(html).not.toContain('application/ld+json');
  });
});
