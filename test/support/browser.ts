import { mkdir } from 'node:fs/promises';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { createTestApp, type TestApp } from './app.js';
import { listenApp } from './processes.js';
import { chromiumPath } from './requirements.js';

/**
 * Debian's chromium as the browser tests run it. Playwright gives it a new, empty --user-data-dir of its own (deleted
 * on close) and adds --headless itself; both are stated so the command line reads the same as a manual run. Without
 * the background-networking flags chromium keeps dialling Google's hosts, which this machine refuses. Other hosts are
 * kept out by the resolver rather than by intercepting requests: with a route handler chromium asks for no favicon at
 * all, which would hide a missing one, and a photo from anywhere but this service fails to load instead of being
 * fetched.
 */
export function launchLoopbackChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
    ],
  });
}

/** A test app listening on a real socket, and the browser that visits it, for one describe block. */
export interface AppInBrowser {
  t: TestApp;
  server: Awaited<ReturnType<typeof listenApp>>;
  browser: Browser;
}

/** Starts the app, its socket and the browser before the block's tests (screenshots go to `screenshots`); stops them after. */
export function useAppInBrowser(screenshots: string): AppInBrowser {
  const opened = {} as AppInBrowser;
  beforeAll(async () => {
    opened.t = await createTestApp();
    opened.server = await listenApp(opened.t.app);
    await mkdir(screenshots, { recursive: true });
    opened.browser = await launchLoopbackChromium();
  });
  afterAll(async () => {
    await opened.browser?.close();
    await opened.server?.close();
    await opened.t?.close();
  });
  return opened;
}
