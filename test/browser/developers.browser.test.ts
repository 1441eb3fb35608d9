// The developer pages and GraphiQL in a real browser (playwright-core driving Debian's chromium): what an analyst and
// an integrator see on first open, with nothing fetched from outside this machine.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { listenApp, repoRoot } from '../support/processes.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasBrowser = existsSync(CHROMIUM);
if (!hasBrowser) console.warn(`[browser] skipped: no chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`);
const SCREENSHOTS = join(repoRoot, 'test', 'browser', 'screenshots');

describe.skipIf(!hasBrowser)('in a browser', () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof listenApp>>;
  let browser: Browser;
  let context: BrowserContext;
  /** Every URL a page asked for outside loopback (refused), and every console error or uncaught exception. */
  const outside: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    server = await listenApp(t.app);
    await mkdir(SCREENSHOTS, { recursive: true });
    // Playwright gives the browser a new, empty --user-data-dir of its own (a temporary directory it deletes on close)
    // and adds --headless itself; both are stated here so the command line reads the same as a manual run.
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      // Without the background-networking flags chromium keeps dialling Google's hosts, which this machine refuses.
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await context.route('**/*', (route) => {
      const host = new URL(route.request().url()).hostname;
      if (host === '127.0.0.1' || host === 'localhost') return route.continue();
      outside.push(route.request().url());
      return route.abort();
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await t?.close();
  });

  async function open(path: string): Promise<Page> {
    const page = await context.newPage();
    page.on('console', (message) => message.type() === 'error' && problems.push(`${path}: ${message.text()}`));
    page.on('pageerror', (error) => problems.push(`${path}: ${error.message}`));
    await page.goto(`${server.base}${path}`);
    return page;
  }

  async function screenshot(page: Page, name: string): Promise<void> {
    const path = join(SCREENSHOTS, `${name}.png`);
    await page.screenshot({ path });
    console.log(`[browser] screenshot ${path}`);
  }

  it('GraphiQL opens with the schema loaded without a key: Docs and the explorer list Query fields, no error anywhere', async () => {
    const page = await open('/graphql');
    await page.locator('.graphiql-container').waitFor();
    expect(await page.locator('#key-help').innerText()).toContain('Paste your API key in the Headers tab');
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

  it('runs the first example once a key is pasted into the header editor, and keeps the key across a reload', async () => {
    const page = await open('/graphql');
    await page.locator('.graphiql-container').waitFor();
    const headers = JSON.stringify({ Authorization: `Bearer ${t.keys.pro}` });
    // The header editor is GraphiQL's CodeMirror: set it as typing would.
    await page.locator('.graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror').first().waitFor();
    await page.evaluate((text) => {
      const editor = document.querySelector('.graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror') as unknown as {
        CodeMirror: { setValue(v: string): void };
      };
      editor.CodeMirror.setValue(text);
    }, headers);
    await page.locator('.graphiql-execute-button').click();
    await page.locator('.result-window').getByText('totalCount').waitFor();
    expect(await page.locator('.result-window').innerText()).toMatch(/"totalCount": \d+/);
    await screenshot(page, 'graphiql-example-with-key');

    // GraphiQL writes its tab state to localStorage a moment after an edit: reload once the key is stored.
    await page.waitForFunction((key) => (localStorage.getItem('graphiql:tabState') ?? '').includes(key), t.keys.pro);
    const tabs = await page.locator('.graphiql-tab').count();
    expect(tabs).toBe(5); // the five example tabs
    await page.reload();
    await page.locator('.graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror').first().waitFor();
    const kept = await page.evaluate(() =>
      (
        document.querySelector('.graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror') as unknown as { CodeMirror: { getValue(): string } }
      ).CodeMirror.getValue(),
    );
    expect(kept).toContain(t.keys.pro);
    expect(await page.locator('.graphiql-tab').count()).toBe(tabs); // the same tabs, none added by the reload
    expect(problems).toEqual([]);
    await page.close();
  });

  it('the REST reference renders every operation of openapi.json', async () => {
    const document = (await t.rest('/api/v1/openapi.json', { key: null })).body;
    const operations = Object.values(document.paths as Record<string, object>).flatMap((item) =>
      Object.keys(item).filter((k) => ['get', 'post', 'put', 'patch', 'delete'].includes(k)),
    );
    const page = await open('/developers/reference');
    await page.locator('.opblock').first().waitFor();
    expect(await page.locator('.opblock').count()).toBe(operations.length);
    await screenshot(page, 'reference');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('every doc_url of real error responses lands on a visible section of the error page', async () => {
    const errors = [
      (await t.rest('/api/v1/venues', { key: null })).body.error,
      (await t.rest('/api/v1/venues', { key: 'wv_live_00000000000000000000000000000000' })).body.error,
      (await t.rest('/api/v1/venues?limit=500')).body.error,
      (await t.rest('/api/v1/venues/no-such-venue')).body.error,
      (await t.rest('/api/v1/nowhere')).body.error,
    ];
    expect(errors.map((e) => e.code)).toEqual(['missing_api_key', 'invalid_api_key', 'invalid_parameters', 'venue_not_found', 'route_not_found']);
    for (const error of errors) {
      const url = new URL(error.doc_url);
      const page = await open(`${url.pathname}${url.hash}`);
      const section = page.locator(`[id="${url.hash.slice(1)}"]`);
      expect(await section.isVisible(), error.doc_url).toBe(true);
      expect(await section.innerText()).toContain(error.code);
      await page.close();
    }
    expect(problems).toEqual([]);
  });

  it('nothing was fetched from outside this machine', () => {
    expect(outside).toEqual([]);
  });
});
