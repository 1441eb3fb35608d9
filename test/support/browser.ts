import { chromium, type Browser } from 'playwright-core';
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
