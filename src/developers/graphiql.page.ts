// GraphiQL for analysts, served by the service from npm packages (no CDN): GraphiQL 3 with the explorer plugin, so
// that an analyst who does not write GraphQL can build a query by ticking fields. Yoga's bundled GraphiQL has no
// plugin support; GraphiQL 3's UMD builds (React 18) load as plain scripts, with no bundler.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { GRAPHIQL_EXAMPLES } from '../graphql/graphiql-examples.js';
import { FAVICON_LINKS } from './favicon.asset.js';

const require = createRequire(import.meta.url);

/** Where the page keeps the key pasted into its key field (localStorage, this origin only). */
export const GRAPHIQL_KEY_STORAGE = 'wedding-api:key';

/** Served under /developers/assets/graphiql/: URL name → [package, file in it, content type]. */
export const GRAPHIQL_ASSETS: Record<string, [string, string, string]> = {
  'react.js': ['react', 'umd/react.production.min.js', 'text/javascript; charset=utf-8'],
  'react-dom.js': ['react-dom', 'umd/react-dom.production.min.js', 'text/javascript; charset=utf-8'],
  'graphiql.js': ['graphiql', 'graphiql.min.js', 'text/javascript; charset=utf-8'],
  'graphiql.css': ['graphiql', 'graphiql.min.css', 'text/css; charset=utf-8'],
  'explorer.js': ['@graphiql/plugin-explorer', 'dist/index.umd.js', 'text/javascript; charset=utf-8'],
  'explorer.css': ['@graphiql/plugin-explorer', 'dist/style.css', 'text/css; charset=utf-8'],
};

export function readGraphiQLAsset(name: string): Uint8Array {
  const [pkg, file] = GRAPHIQL_ASSETS[name];
  return readFileSync(join(dirname(require.resolve(`${pkg}/package.json`)), file));
}

/**
 * An asset's URL carries its package's version: the assets are cached for a day and the page for five minutes, so
 * after an upgrade a browser would otherwise run the new page with yesterday's GraphiQL (the server ignores `v`).
 */
export function graphiqlAssetUrl(name: string): string {
  const [pkg] = GRAPHIQL_ASSETS[name];
  const { version } = require(`${pkg}/package.json`) as { version: string };
  return `/developers/assets/graphiql/${name}?v=${encodeURIComponent(version)}`;
}

/** JSON for a <script> element: `</script>` and friends cannot end it early. */
const inScript = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** The GraphiQL page: long because it is one HTML document, its script included. */
export function graphiqlPage(): string {
  const asset = graphiqlAssetUrl;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Wedding Discovery API — GraphiQL</title>
<link rel="stylesheet" href="${asset('graphiql.css')}">
<link rel="stylesheet" href="${asset('explorer.css')}">
${FAVICON_LINKS}
<style>
  body { margin: 0; height: 100vh; display: flex; flex-direction: column; font-family: system-ui, sans-serif; }
  #key-bar { display: flex; flex-wrap: wrap; gap: 4px 12px; align-items: center; margin: 0; padding: 6px 12px; font-size: 14px; color: #1d1d1f; background: #f4f1ec; border-bottom: 1px solid #ddd; }
  #key-bar input { width: 24em; font: 13px ui-monospace, Menlo, Consolas, monospace; padding: 3px 6px; }
  #graphiql { flex: 1; min-height: 0; }
</style>
</head>
<body>
<form id="key-bar" autocomplete="off">
<label for="api-key"><strong>API key</strong></label>
<input id="api-key" type="password" spellcheck="false" placeholder="Paste your key (wv_live_...)">
<span id="key-help">Sent from every tab, in place of any key in a tab's Headers, and kept in this browser only. The schema (Docs, Explorer) loads without a key.</span>
<a href="/developers">Developer pages</a>
</form>
<div id="graphiql">Loading GraphiQL…</div>
<script src="${asset('react.js')}"></script>
<script src="${asset('react-dom.js')}"></script>
<script src="${asset('graphiql.js')}"></script>
<script src="${asset('explorer.js')}"></script>
<script>
  const tabs = ${inScript(GRAPHIQL_EXAMPLES)};
  // GraphiQL keeps headers per tab, so a key pasted into one tab's Headers would reach no other: the key field is the
  // page's, and the fetcher sends its key from whichever tab runs. It stays in this browser's storage, never in a URL
  // or our logs.
  const keyStorage = ${inScript(GRAPHIQL_KEY_STORAGE)};
  const keyField = document.getElementById('api-key');
  try {
    keyField.value = localStorage.getItem(keyStorage) || '';
  } catch (e) {}
  keyField.addEventListener('input', () => {
    const key = keyField.value.trim();
    try {
      if (key) localStorage.setItem(keyStorage, key);
      else localStorage.removeItem(keyStorage);
    } catch (e) {}
  });
  document.getElementById('key-bar').addEventListener('submit', (event) => event.preventDefault());
  const send = GraphiQL.createFetcher({ url: '/graphql' });
  // Right after a tab switch GraphiQL can still send the previous tab's operation name, which names no operation of
  // the query it sends: the server would refuse the run, so a name the query does not declare is left out.
  function withOwnOperation(params) {
    const words = String(params.query || '').split(/[^_0-9A-Za-z]+/);
    const declared = words.some((word, i) => ['query', 'mutation', 'subscription'].includes(word) && words[i + 1] === params.operationName);
    if (!params.operationName || declared) return params;
    const { operationName, ...rest } = params;
    return rest;
  }
  function fetcher(given, options) {
    const params = withOwnOperation(given);
    const key = keyField.value.trim();
    if (!key) return send(params, options);
    // The field's key replaces any a tab's headers carry (a placeholder, another key): two keys are refused.
    const headers = {};
    for (const [name, value] of Object.entries((options && options.headers) || {})) {
      if (!/^(authorization|x-service-key)$/i.test(name)) headers[name] = value;
    }
    headers.Authorization = 'Bearer ' + key;
    return send(params, { ...options, headers });
  }
  // GraphiQL restores its stored tabs but also opens a new tab for the query/headers props unless they match the
  // stored active tab: passing that tab's own contents reopens the analyst's tabs as they were.
  let restored = {};
  try {
    const state = JSON.parse(localStorage.getItem('graphiql:tabState') || 'null');
    const active = state && Array.isArray(state.tabs) ? state.tabs[state.activeTabIndex] : null;
    if (active) restored = { query: active.query, variables: active.variables, headers: active.headers };
  } catch (e) {}
  const root = ReactDOM.createRoot(document.getElementById('graphiql'));
  root.render(React.createElement(GraphiQL, {
    ...restored,
    fetcher,
    defaultTabs: tabs,
    defaultQuery: tabs[0].query,
    // Headers other than the key (a tab may need one) are kept like the tabs.
    shouldPersistHeaders: true,
    plugins: [GraphiQLPluginExplorer.explorerPlugin()],
  }));
</script>
</body>
</html>
`;
}
