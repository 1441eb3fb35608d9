/**
 * docs/bench/results.svg without a browser or a chart library: two horizontal bar panels, req/s (each case beside
 * its own baseline, when it has one) and p99 ms under closed-loop load, one row per case.
 */
export interface ChartRow {
  /** "pglite R3" etc. */
  label: string;
  rps: number | null;
  baselineRps: number | null;
  baseline: string | null;
  p99Ms: number | null;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const num = (n: number) => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(n >= 10 ? 1 : 2));

export function chartSvg(rows: ChartRow[], title: string): string {
  const rowH = 26;
  const labelW = 190;
  const panelW = 330;
  const gap = 60;
  const top = 56;
  const width = labelW + 2 * panelW + gap + 20;
  const height = top + rows.length * rowH + 40;
  const maxRps = Math.max(1, ...rows.flatMap((r) => [r.rps ?? 0, r.baselineRps ?? 0]));
  const maxP99 = Math.max(1, ...rows.map((r) => r.p99Ms ?? 0));
  const x2 = labelW + panelW + gap;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="10" y="18" font-size="13" font-weight="bold">${esc(title)}</text>`,
    `<text x="${labelW}" y="42">req/s (dark: case, light: its hand-written baseline)</text>`,
    `<text x="${x2}" y="42">p99 ms under load (c=50, closed loop)</text>`,
  ];
  rows.forEach((r, i) => {
    const y = top + i * rowH;
    out.push(`<text x="${labelW - 6}" y="${y + 15}" text-anchor="end">${esc(r.label)}</text>`);
    if (r.rps !== null) {
      const w = (r.rps / maxRps) * panelW;
      out.push(`<rect class="bar rps" data-case="${esc(r.label)}" x="${labelW}" y="${y + 2}" width="${w.toFixed(1)}" height="10" fill="#1f5fa8"/>`);
      out.push(`<text x="${(labelW + w + 4).toFixed(1)}" y="${y + 11}">${num(r.rps)}</text>`);
    }
    if (r.baselineRps !== null && r.baseline) {
      const w = (r.baselineRps / maxRps) * panelW;
      out.push(
        `<rect class="bar baseline" data-case="${esc(r.label)}" x="${labelW}" y="${y + 13}" width="${w.toFixed(1)}" height="8" fill="#9dc3ea"/>`,
      );
      out.push(`<text x="${(labelW + w + 4).toFixed(1)}" y="${y + 21}" fill="#555">${esc(r.baseline)} ${num(r.baselineRps)}</text>`);
    }
    if (r.p99Ms !== null) {
      const w = (r.p99Ms / maxP99) * panelW;
      out.push(`<rect class="bar p99" data-case="${esc(r.label)}" x="${x2}" y="${y + 4}" width="${w.toFixed(1)}" height="14" fill="#c0504d"/>`);
      out.push(`<text x="${(x2 + w + 4).toFixed(1)}" y="${y + 15}">${num(r.p99Ms)}</text>`);
    }
  });
  out.push(`</svg>`);
  return `${out.join('\n')}\n`;
}
