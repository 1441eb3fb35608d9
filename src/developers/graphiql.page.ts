// GraphiQL for analysts, served by the service from npm packages (no CDN): GraphiQL 3 with the explorer plugin, so
// that an analyst who does not write GraphQL can build a query by ticking fields. Yoga's bundled GraphiQL has no
// plugin support; GraphiQL 3's UMD builds (React 18) load as plain scripts, with no bundler.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { GRAPHIQL_EXAMPLES } from '../graphql/graphiql-examples.js';

const require = createRequire(import.meta.url);

/** ASCII only: browsers refuse a header value with any other character before sending anything. */
export const GRAPHIQL_HEADERS = JSON.stringify({ Authorization: 'Bearer YOUR_API_KEY' }, null, 2);

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

export function graphiqlPage(): string {
  const tabs = GRAPHIQL_EXAMPLES.map((tab) => ({ ...tab, headers: GRAPHIQL_HEADERS }));
  const asset = graphiqlAssetUrl;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Wedding Discovery API — GraphiQL</title>
<link rel="stylesheet" href="${asset('graphiql.css')}">
<link rel="stylesheet" href="${asset('explorer.css')}">
<style>
  body { margin: 0; height: 100vh; display: flex; flex-direction: column; font-family: system-ui, sans-serif; }
  #key-help { padding: 6px 12px; font-size: 14px; background: #f4f1ec; border-bottom: 1px solid #ddd; }
  #graphiql { flex: 1; min-height: 0; }
</style>
</head>
<body>
<p id="key-help">Paste your API key in the <strong>Headers</strong> tab below, in place of <code>YOUR_API_KEY</code>: it stays in this browser only. The schema (Docs, Explorer) loads without a key. <a href="/developers">Developer pages</a></p>
<div id="graphiql">Loading GraphiQL…</div>
<script src="${asset('react.js')}"></script>
<script src="${asset('react-dom.js')}"></script>
<script src="${asset('graphiql.js')}"></script>
<script src="${asset('explorer.js')}"></script>
<script>
  const tabs = ${inScript(tabs)};
  // GraphiQL restores its stored tabs but also opens a new tab for the query/headers props unless they match the
  // stored active tab: passing that tab's own contents reopens the analyst's tabs as they were (key included).
  let restored = {};
  try {
    const state = JSON.parse(localStorage.getItem('graphiql:tabState') || 'null');
    const active = state && Array.isArray(state.tabs) ? state.tabs[state.activeTabIndex] : null;
    if (active) restored = { query: active.query, variables: active.variables, headers: active.headers };
  } catch (e) {}
  const root = ReactDOM.createRoot(document.getElementById('graphiql'));
  root.render(React.createElement(GraphiQL, {
    ...restored,
    fetcher: GraphiQL.createFetcher({ url: '/graphql' }),
    defaultTabs: tabs,
    defaultQuery: tabs[0].query,
    defaultHeaders: ${inScript(GRAPHIQL_HEADERS)},
    // The key the analyst pastes stays in this browser's storage (GraphiQL's own), never in a URL or our logs.
    shouldPersistHeaders: true,
    defaultEditorToolsVisibility: 'headers',
    plugins: [GraphiQLPluginExplorer.explorerPlugin()],
  }));
</script>
</body>
</html>
`;
}
