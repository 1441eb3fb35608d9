// The developer pages and GraphiQL in a real browser (playwright-core driving Debian's chromium): what an analyst and
// an integrator see on first open, with nothing fetched from outside this machine.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type BrowserContext, type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useAppInBrowser } from '../support/browser.js';
import { repoRoot } from '../support/processes.js';
import { chromiumPath } from '../support/requirements.js';
import { FAVICONS } from '../../src/developers/developers.http.js';
import { GRAPHIQL_KEY_STORAGE } from '../../src/developers/graphiql.page.js';

const CHROMIUM = chromiumPath;
// Without it the run prints why this group skipped (test/support/requirements.ts).
const hasBrowser = existsSync(CHROMIUM);
const SCREENSHOTS = join(repoRoot, 'test', 'browser', 'screenshots');

/** Every HTML page the service serves, and openapi.json, which the pages link and a browser shows as a page. */
const PAGES = [
  '/developers',
  '/developers/reference',
  '/developers/errors',
  '/developers/changelog',
  '/graphql',
  '/developers/graphiql',
  '/api/v1/openapi.json',
];

/** A page and what went wrong on it: console errors, uncaught exceptions, failed requests, HTTP errors. */
interface Opened {
  page: Page;
  problems: string[];
}

// Contrast as WCAG 2 defines it, from the colours the browser computed.
type Rgba = [number, number, number, number];
function parseColour(css: string): Rgba {
  const channels = /^rgba?\(([^)]+)\)$/
    .exec(css)?.[1]
    .split(/[\s,/]+/)
    .map(Number);
  if (!channels || channels.length < 3) throw new Error(`not an rgb() colour: ${css}`);
  return [channels[0], channels[1], channels[2], channels[3] ?? 1];
}
/** A colour laid over what is behind it. */
const over = ([r, g, b, a]: Rgba, [br, bg, bb]: Rgba): Rgba => [r * a + br * (1 - a), g * a + bg * (1 - a), b * a + bb * (1 - a), 1];
function luminance([r, g, b]: Rgba): number {
  const [lr, lg, lb] = [r, g, b].map((c) => (c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4));
  return 0.2126 * lr + 0.7152 * lg + 0.0722 * lb;
}
/** Text colour against its element's background layers, innermost first, all over a white canvas. */
function contrast(text: string, layers: string[]): number {
  const backdrop = layers.reduceRight<Rgba>((behind, layer) => over(parseColour(layer), behind), [255, 255, 255, 1]);
  const [light, dark] = [luminance(over(parseColour(text), backdrop)), luminance(backdrop)].sort((a, b) => b - a);
  return (light + 0.05) / (dark + 0.05);
}

describe.skipIf(!hasBrowser)('in a browser', () => {
  const opened = useAppInBrowser(SCREENSHOTS);
  /** Every URL a page asked for outside loopback (the browser resolves no other host, so each also fails). */
  const outside: string[] = [];

  /** A new context (empty storage and cache) with one page, observed but never intercepted. */
  async function open(path: string): Promise<Opened> {
    const context: BrowserContext = await opened.browser.newContext({ viewport: { width: 1400, height: 900 } });
    context.on('request', (request) => {
      const url = new URL(request.url());
      if (url.protocol.startsWith('http') && url.hostname !== '127.0.0.1') outside.push(request.url());
    });
    const page = await context.newPage();
    // When the browser itself is closing, closing the context rejects: there is nothing left to close then.
    page.on('close', () => void context.close().catch(() => undefined));
    const problems: string[] = [];
    page.on('console', (message) => message.type() === 'error' && problems.push(`console: ${message.text()} ${message.location().url}`));
    page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
    page.on('requestfailed', (request) => problems.push(`failed: ${request.url()} ${request.failure()?.errorText}`));
    page.on('response', (response) => response.status() >= 400 && problems.push(`HTTP ${response.status()}: ${response.url()}`));
    await page.goto(`${opened.server.base}${path}`);
    return { page, problems };
  }

  /**
   * The icon requests the server answered, as `path status`, from its request log: chromium fetches icons outside the
   * page's network events, so only the server sees them.
   */
  const iconsServed = () =>
    opened.t.logs
      .flatMap((chunk) => chunk.split('\n').filter(Boolean))
      .map((line) => JSON.parse(line) as { msg?: string; path?: string; status?: number })
      .filter((entry) => entry.msg === 'request' && FAVICONS.has(entry.path ?? ''))
      .map((entry) => `${entry.path} ${entry.status}`);

  async function screenshot(page: Page, name: string): Promise<void> {
    const path = join(SCREENSHOTS, `${name}.png`);
    await page.screenshot({ path });
    console.log(`[browser] screenshot ${path}`);
  }

  /** Sets one of GraphiQL's CodeMirror editors (the visible one under `scope`) as typing would. */
  async function setEditor(page: Page, scope: string, text: string): Promise<void> {
    const selector = `${scope} .graphiql-editor:not(.hidden) .CodeMirror`;
    await page.locator(selector).first().waitFor();
    await page.evaluate(
      ([selector, text]) => (document.querySelector(selector) as unknown as { CodeMirror: { setValue(v: string): void } }).CodeMirror.setValue(text),
      [selector, text] as const,
    );
  }

  /** Runs the active tab's operation and gives the result pane's text once an answer is in it. */
  async function run(page: Page, answer: RegExp): Promise<string> {
    await page.locator('.graphiql-execute-button').click();
    await expect.poll(() => page.locator('.result-window').innerText(), { timeout: 15_000 }).toMatch(answer);
    return page.locator('.result-window').innerText();
  }

  it('every page shows an icon the service serves, with no console error and no failed request', async () => {
    for (const path of PAGES) {
      const before = iconsServed().length;
      const { page, problems } = await open(path);
      await page.waitForLoadState('networkidle');
      await expect.poll(() => iconsServed().length, { message: `${path} asked for no icon`, timeout: 15_000 }).toBeGreaterThan(before);
      // The HTML pages link the SVG; openapi.json links nothing, so the browser asks for /favicon.ico.
      expect(iconsServed().slice(before), path).toEqual([path.endsWith('.json') ? '/favicon.ico 200' : '/favicon.svg 200']);
      expect(problems, path).toEqual([]);
      await page.close();
    }
  });

  it('GraphiQL opens with the schema loaded without a key: Docs and the explorer list Query fields, no error anywhere', async () => {
    const { page, problems } = await open('/graphql');
    await page.locator('.graphiql-container').waitFor();
    expect(await page.locator('#api-key').inputValue()).toBe('');
    expect(await page.locator('#key-help').innerText()).toContain('Sent from every tab');
    await page.getByRole('button', { name: 'Show Documentation Explorer' }).click();
    const docs = page.locator('.graphiql-doc-explorer');
    await docs.getByText('Query', { exact: true }).first().click();
    await docs.getByText('venues', { exact: true }).first().waitFor();
    await screenshot(page, 'graphiql-docs');
    await page.getByRole('button', { name: 'Show GraphiQL Explorer' }).click();
    await page.locator('.graphiql-plugin').getByText('vendorCategories', { exact: true }).first().waitFor();
    await screenshot(page, 'graphiql-first-open');
    expect(await page.locator('.result-window').innerText()).not.toMatch(/error|failed/i);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a key pasted once into the key field runs queries in every tab, a new one included, and stays after a reload', async () => {
    const { page, problems } = await open('/graphql');
    await page.locator('.graphiql-container').waitFor();
    await page.locator('#api-key').fill(opened.t.keys.pro);
    expect(await run(page, /"totalCount": \d+/)).not.toMatch(/error/i);

    await page.getByRole('button', { name: 'Add tab' }).click();
    expect(await page.locator('.graphiql-tab').count()).toBe(6); // the five example tabs and the new one
    await setEditor(page, '.graphiql-query-editor', 'query SecondTab { venues(first: 2) { totalCount nodes { slug } } }');
    // GraphiQL reads the operation name a moment after an edit, and names the tab after it.
    await page.locator('.graphiql-tab-active').getByText('SecondTab').waitFor();
    expect(await run(page, /"slug": "/)).not.toMatch(/error/i);
    await screenshot(page, 'graphiql-second-tab-with-key');
    // The key is the page's, not copied into any tab's headers.
    // GraphiQL writes its tab state a moment after an edit.
    await expect.poll(() => page.evaluate(() => localStorage.getItem('graphiql:tabState') ?? ''), { timeout: 15_000 }).toContain('SecondTab');
    const storage = await page.evaluate(
      (name) => ({ key: localStorage.getItem(name), tabs: localStorage.getItem('graphiql:tabState') }),
      GRAPHIQL_KEY_STORAGE,
    );
    expect(storage.key).toBe(opened.t.keys.pro);
    expect(storage.tabs).not.toContain(opened.t.keys.pro);

    await page.reload();
    await page.locator('.graphiql-container').waitFor();
    expect(await page.locator('#api-key').inputValue()).toBe(opened.t.keys.pro);
    expect(await page.locator('.graphiql-tab').count()).toBe(6); // the same tabs, none added by the reload
    await page.locator('.graphiql-tab').nth(2).click(); // Photographers
    // Run only once the tab is the active one: on a busy host the click lands before GraphiQL switches editors.
    await page.locator('.graphiql-tab-active').getByText('Photographers').waitFor();
    expect(await run(page, /"vendorCategories"/)).not.toMatch(/error/i);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a placeholder key left in a tab’s headers gets a 401 that says so; the key field then replaces it', async () => {
    const { page, problems } = await open('/graphql');
    await page.locator('.graphiql-container').waitFor();
    await page.locator('.graphiql-editor-tools').getByRole('button', { name: 'Headers' }).click();
    await setEditor(page, '.graphiql-editor-tool', JSON.stringify({ Authorization: 'Bearer YOUR_API_KEY' }));
    const refused = await run(page, /invalid_api_key/);
    expect(refused).toContain('The API key is missing: the value sent is a placeholder');
    expect(refused).not.toContain('invalid or has been revoked');
    await screenshot(page, 'graphiql-placeholder-key');
    await page.locator('#api-key').fill(opened.t.keys.free);
    expect(await run(page, /"totalCount": \d+/)).not.toMatch(/error/i);
    // The refused request is the only one that went wrong (its response, and chromium's console line for it).
    expect(problems.length).toBeGreaterThan(0);
    for (const problem of problems) expect(problem).toMatch(/401/);
    await page.close();
  });

  it('the REST reference renders every operation of openapi.json', async () => {
    const document = (await opened.t.rest('/api/v1/openapi.json', { key: null })).body;
    const operations = Object.values(document.paths as Record<string, object>).flatMap((item) =>
      Object.keys(item).filter((k) => ['get', 'post', 'put', 'patch', 'delete'].includes(k)),
    );
    const { page, problems } = await open('/developers/reference');
    await page.locator('.opblock').first().waitFor();
    expect(await page.locator('.opblock').count()).toBe(operations.length);
    await screenshot(page, 'reference');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('the reference’s version badges contrast with their background at 4.5:1 or more, in light and dark mode', async () => {
    const { page } = await open('/developers/reference');
    const badges = page.locator('.info .title small pre');
    await badges.first().waitFor();
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      const seen = await badges.evaluateAll((elements) =>
        elements.map((element) => {
          const layers: string[] = [];
          for (let at: Element | null = element; at; at = at.parentElement) layers.push(getComputedStyle(at).backgroundColor);
          return { text: element.textContent ?? '', color: getComputedStyle(element).color, layers };
        }),
      );
      expect(seen.map((badge) => badge.text.trim())).toEqual(['1.0.0', 'OAS 3.1']);
      for (const badge of seen) {
        expect(
          contrast(badge.color, badge.layers),
          `${badge.text} (${colorScheme}): ${badge.color} on ${badge.layers.join(' < ')}`,
        ).toBeGreaterThanOrEqual(4.5);
      }
    }
    await screenshot(page, 'reference-badges');
    await page.close();
  });

  it('every doc_url of real error responses lands on a visible section of the error page', async () => {
    const errors = [
      (await opened.t.rest('/api/v1/venues', { key: null })).body.error,
      (await opened.t.rest('/api/v1/venues', { key: 'wv_live_00000000000000000000000000000000' })).body.error,
      (await opened.t.rest('/api/v1/venues?limit=500')).body.error,
      (await opened.t.rest('/api/v1/venues/no-such-venue')).body.error,
      (await opened.t.rest('/api/v1/nowhere')).body.error,
    ];
    expect(errors.map((e) => e.code)).toEqual(['missing_api_key', 'invalid_api_key', 'invalid_parameters', 'venue_not_found', 'route_not_found']);
    for (const error of errors) {
      const url = new URL(error.doc_url);
      const { page, problems } = await open(`${url.pathname}${url.hash}`);
      const section = page.locator(`[id="${url.hash.slice(1)}"]`);
      expect(await section.isVisible(), error.doc_url).toBe(true);
      expect(await section.innerText()).toContain(error.code);
      expect(problems).toEqual([]);
      await page.close();
    }
  });

  it('nothing was fetched from outside this machine', () => {
    expect(outside).toEqual([]);
  });
});
