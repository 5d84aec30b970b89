// The throughput chart of docs/benchmarks.md: one group per scenario, the project's bar beside
// the baseline's, with the values and their ratio written on it. Plain SVG, no library.
import type { Outcome } from './measure.js';
import type { ScenarioResult } from './run-scenarios.js';

const WIDTH = 920;
const HEIGHT = 460;
const MARGIN = { top: 84, right: 20, bottom: 110, left: 80 };
const COLOURS = { project: '#2f6db5', baseline: '#a8acb3' } as const;

const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const rps = (o: Outcome): number | undefined => ('measured' in o ? o.measured.requestsPerSecond : undefined);

/** A round axis maximum above `value` that divides into five round ticks. */
function niceCeiling(value: number): number {
  const power = 10 ** Math.floor(Math.log10(Math.max(value, 1)));
  return ([1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10].find((step) => step * power >= value) ?? 10) * power;
}

function text(x: number, y: number, content: string, attributes = ''): string {
  return `<text x="${x.toFixed(1)}" y="${y.toFixed(1)}" ${attributes}>${escape(content)}</text>`;
}

export function throughputChart(results: readonly ScenarioResult[], subtitle: string): string {
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const highest = Math.max(1, ...results.flatMap((r) => [rps(r.project) ?? 0, rps(r.baseline) ?? 0]));
  const top = niceCeiling(highest * 1.1);
  const y = (value: number): number => MARGIN.top + plotHeight - (value / top) * plotHeight;
  const group = plotWidth / Math.max(1, results.length);
  const bar = Math.min(60, group * 0.32);
  const parts: string[] = [];

  parts.push(text(WIDTH / 2, 26, 'Throughput per scenario: project beside the bare-metal baseline', 'text-anchor="middle" font-size="17" font-weight="bold"'));
  parts.push(text(WIDTH / 2, 46, subtitle, 'text-anchor="middle" font-size="12" fill="#555"'));
  for (let i = 0; i <= 5; i++) {
    const value = (top / 5) * i;
    parts.push(`<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${y(value).toFixed(1)}" y2="${y(value).toFixed(1)}" stroke="#e3e5e8"/>`);
    parts.push(text(MARGIN.left - 8, y(value) + 4, value.toLocaleString('en-US'), 'text-anchor="end" font-size="11" fill="#444"'));
  }
  parts.push(text(20, MARGIN.top + plotHeight / 2, 'requests per second', `text-anchor="middle" font-size="12" transform="rotate(-90 20 ${MARGIN.top + plotHeight / 2})"`));
  parts.push(`<line x1="${MARGIN.left}" x2="${MARGIN.left}" y1="${MARGIN.top}" y2="${MARGIN.top + plotHeight}" stroke="#333"/>`);
  parts.push(`<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${MARGIN.top + plotHeight}" y2="${MARGIN.top + plotHeight}" stroke="#333"/>`);

  results.forEach((r, index) => {
    const centre = MARGIN.left + group * (index + 0.5);
    const sides = [
      { value: rps(r.project), x: centre - bar - 2, colour: COLOURS.project },
      { value: rps(r.baseline), x: centre + 2, colour: COLOURS.baseline },
    ];
    for (const side of sides) {
      if (side.value === undefined) {
        parts.push(text(side.x + bar / 2, y(0) - 6, 'skipped', 'text-anchor="middle" font-size="10" fill="#a33"'));
        continue;
      }
      const barTop = y(side.value);
      parts.push(`<rect x="${side.x.toFixed(1)}" y="${barTop.toFixed(1)}" width="${bar.toFixed(1)}" height="${(y(0) - barTop).toFixed(1)}" fill="${side.colour}"/>`);
      parts.push(text(side.x + bar / 2, barTop - 5, side.value.toFixed(0), 'text-anchor="middle" font-size="11"'));
    }
    const [project, baseline] = [rps(r.project), rps(r.baseline)];
    const ratio = project !== undefined && baseline !== undefined ? `ratio ${(project / baseline).toFixed(2)}` : 'no ratio';
    parts.push(text(centre, y(0) + 18, r.id, 'text-anchor="middle" font-size="12" font-weight="bold"'));
    parts.push(text(centre, y(0) + 34, r.title.length > 34 ? `${r.title.slice(0, 33)}…` : r.title, 'text-anchor="middle" font-size="9.5" fill="#555"'));
    parts.push(text(centre, y(0) + 50, ratio, 'text-anchor="middle" font-size="11" fill="#2f6db5"'));
  });
  parts.push(text(WIDTH / 2, HEIGHT - 28, 'scenario (project / baseline throughput ratio below each)', 'text-anchor="middle" font-size="12"'));

  // The legend in one row between the subtitle and the plot, clear of any bar.
  const legendY = MARGIN.top - 22;
  const legendX = WIDTH / 2 - 230;
  parts.push(`<rect x="${legendX}" y="${legendY - 10}" width="12" height="12" fill="${COLOURS.project}"/>`);
  parts.push(text(legendX + 17, legendY, 'project (Koa, inversify, io-ts)', 'font-size="11"'));
  parts.push(`<rect x="${legendX + 230}" y="${legendY - 10}" width="12" height="12" fill="${COLOURS.baseline}"/>`);
  parts.push(text(legendX + 247, legendY, 'baseline (node:http + better-sqlite3)', 'font-size="11"'));

  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="Helvetica, Arial, sans-serif" role="img" aria-label="Throughput per scenario, project beside baseline">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#fff"/>`,
    ...parts.map((p) => `  ${p}`),
    '</svg>',
    '',
  ].join('\n');
}
