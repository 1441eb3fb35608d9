// A venue's public page in a real browser (playwright-core driving Debian's chromium): what a couple following a
// venue's `url` sees, with its structured data readable and every photo loaded from this machine.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useAppInBrowser } from '../support/browser.js';
import { repoRoot } from '../support/processes.js';
import { chromiumPath } from '../support/requirements.js';

// Without it the run prints why this group skipped (test/support/requirements.ts).
const hasBrowser = existsSync(chromiumPath);
const SCREENSHOTS = join(repoRoot, 'test', 'browser', 'screenshots');
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** A page, every URL it asked for, and what went wrong on it: console errors, uncaught exceptions, failed requests. */
interface Opened {
  page: Page;
  requested: string[];
  problems: string[];
}

describe.skipIf(!hasBrowser)('a venue page in a browser', () => {
  const opened = useAppInBrowser(SCREENSHOTS);

  /** A new context (empty cache) with one page, observed but never intercepted. */
  async function open(path: string): Promise<Opened> {
    const context = await opened.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.on('close', () => void context.close().catch(() => undefined));
    const requested: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    page.on('console', (message) => message.type() === 'error' && problems.push(`console: ${message.text()} ${message.location().url}`));
    page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
    page.on('requestfailed', (request) => problems.push(`failed: ${request.url()} ${request.failure()?.errorText}`));
    page.on('response', (response) => response.status() >= 400 && problems.push(`HTTP ${response.status()}: ${response.url()}`));
    await page.goto(`${opened.server.base}${path}`);
    await page.waitForLoadState('networkidle');
    return { page, requested, problems };
  }

  /** The first published venue with a full gallery preview and reviews. */
  async function venueWithPhotos() {
    const [{ slug }] = await opened.t.db.readRows<{ slug: string }>(
      `SELECT v.slug FROM "Venue" v WHERE v.published AND v."totalPhotos" >= 5 AND v.latitude IS NOT NULL
         AND EXISTS (SELECT 1 FROM "Testimonial" x WHERE x."venueId" = v.id) ORDER BY v.slug LIMIT 1`,
      [],
    );
    return (await opened.t.rest(`/api/v1/venues/${encodeURIComponent(slug)}`)).body.data;
  }

  it('its JSON-LD parses, every photo loads from loopback, and nothing fails or leaves this machine', async () => {
    const venue = await venueWithPhotos();
    const { page, requested, problems } = await open(new URL(venue.url).pathname);
    expect(await page.locator('h1').innerText()).toBe(venue.name);

    const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
    expect(blocks).toHaveLength(1);
    const ld = JSON.parse(blocks[0]);
    expect(ld['@type']).toEqual(['EventVenue', 'LodgingBusiness']);
    expect(ld).toMatchObject({ name: venue.name, url: venue.url, geo: { latitude: venue.latitude, longitude: venue.longitude } });
    expect(ld.image).toHaveLength(venue.photos.length);

    const images = await page
      .locator('img')
      .evaluateAll((elements) =>
        (elements as HTMLImageElement[]).map((img) => ({ src: img.currentSrc, complete: img.complete, width: img.naturalWidth })),
      );
    expect(images).toHaveLength(venue.photos.length);
    for (const image of images) {
      expect(new URL(image.src).host, image.src).toBe(new URL(opened.server.base).host);
      expect(image.complete, image.src).toBe(true);
      expect(image.width, image.src).toBeGreaterThan(0);
    }
    // The photos the page asked for are the ones it shows, and everything it asked for came from this machine.
    expect(requested.filter((url) => url.includes('/media/')).sort()).toEqual(images.map((image) => image.src).sort());
    for (const url of requested) expect(LOOPBACK.has(new URL(url).hostname), url).toBe(true);
    expect(problems).toEqual([]);

    const shot = join(SCREENSHOTS, 'venue-page.png');
    await page.screenshot({ path: shot, fullPage: true });
    console.log(`[browser] screenshot ${shot}`);
    await page.close();
  });

  it('from the catalogue (/venues, the benchmarks’ source_url) a link leads to a venue page, again without a problem', async () => {
    const { page, requested, problems } = await open('/venues');
    await expect.poll(() => page.locator('h2').allTextContents()).toContain('How the cost benchmarks are made');
    const link = page.locator('main ul li a').first();
    const name = await link.innerText();
    await Promise.all([page.waitForURL(/\/venues\/.+/), link.click()]);
    await page.waitForLoadState('networkidle');
    expect(await page.locator('h1').innerText()).toBe(name);
    expect(JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!).name).toBe(name);
    for (const url of requested) expect(LOOPBACK.has(new URL(url).hostname), url).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });
});
