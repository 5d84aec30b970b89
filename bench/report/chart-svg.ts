// The throughput chart of docs/performance.md (docs/performance.svg): one group per scenario, a bar per server (the
// project, then its references), with the medians and the project's ratio to the references
// written on it. Plain SVG, no library.
import { measuredOf, type Outcome } from '../harness/measure.js';
import { comparedIn, projectRatio, SERVER_TITLES } from './report.js';
import type { ScenarioResult } from '../harness/run-scenarios.js';
import type { ComparedName, ServerName } from '../servers/servers.js';

const WIDTH = 960;
const HEIGHT = 480;
const MARGIN = { top: 84, right: 20, bottom: 124, left: 80 };
const COLOURS: Readonly<Record<ServerName, string>> = {
  project: '#2f6db5',
  baseline: '#a8acb3',
  'koa-floor': '#e0b469',
  'card-floor': '#6aa86e',
  'one-process': '#7fa7d9',
  'events-off': '#9b8fc9',
  jetstream: '#c9798f',
  earlier: '#8a8f98',
  jwt: '#5fb3a8',
  tracing: '#b58f5f',
};
const LEGEND: Readonly<Record<ServerName, string>> = {
  project: 'project',
  baseline: 'baseline (node:http)',
  'koa-floor': 'Koa floor (baseline in Koa)',
  'card-floor': 'card floor (baseline behind Koa + @koa/router)',
  'one-process': 'project, one process',
  'events-off': 'project, PETSTORE_EVENTS=off',
  jetstream: 'project, events to NATS JetStream',
  earlier: 'project, earlier commit (--against)',
  jwt: 'project, with a JWT instead of an API key',
  tracing: 'project, tracing every request (always_on)',
};

const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const rps = (o: Outcome | undefined): number | undefined => measuredOf(o)?.requestsPerSecond;

/** A round axis maximum above `value` that divides into five round ticks. */
function niceCeiling(value: number): number {
  const power = 10 ** Math.floor(Math.log10(Math.max(value, 1)));
  return ([1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10].find((step) => step * power >= value) ?? 10) * power;
}

function text(x: number, y: number, content: string, attributes = ''): string {
  return `<text x="${x.toFixed(1)}" y="${y.toFixed(1)}" ${attributes}>${escape(content)}</text>`;
}

/** The project's throughput over each reference's, as written under a group: "÷ card floor 0.71". */
const ratios = (r: ScenarioResult, references: readonly ComparedName[]): string[] =>
  references.map((s) => `÷ ${SERVER_TITLES[s]} ${projectRatio(r, s, (m) => m.requestsPerSecond)?.toFixed(2) ?? '—'}`);

/** `servers` in the order of their bars; the project's ratios to `references` (every other server unless told) under each group. */
export function throughputChart(
  results: readonly ScenarioResult[],
  servers: readonly ServerName[],
  subtitle: string,
  references: readonly ComparedName[] = comparedIn(servers),
): string {
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const highest = Math.max(1, ...results.flatMap((r) => servers.map((s) => rps(r.medians[s]) ?? 0)));
  const top = niceCeiling(highest * 1.1);
  const y = (value: number): number => MARGIN.top + plotHeight - (value / top) * plotHeight;
  const group = plotWidth / Math.max(1, results.length);
  const bar = Math.min(40, (group * 0.8) / servers.length);
  const parts: string[] = [];

  parts.push(
    text(
      WIDTH / 2,
      26,
      'Throughput per scenario: the project beside its references (medians)',
      'text-anchor="middle" font-size="17" font-weight="bold"',
    ),
  );
  parts.push(text(WIDTH / 2, 46, subtitle, 'text-anchor="middle" font-size="12" fill="#555"'));
  for (let i = 0; i <= 5; i++) {
    const value = (top / 5) * i;
    parts.push(
      `<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${y(value).toFixed(1)}" y2="${y(value).toFixed(1)}" stroke="#e3e5e8"/>`,
    );
    parts.push(text(MARGIN.left - 8, y(value) + 4, value.toLocaleString('en-US'), 'text-anchor="end" font-size="11" fill="#444"'));
  }
  parts.push(
    text(
      20,
      MARGIN.top + plotHeight / 2,
      'requests per second',
      `text-anchor="middle" font-size="12" transform="rotate(-90 20 ${MARGIN.top + plotHeight / 2})"`,
    ),
  );
  parts.push(`<line x1="${MARGIN.left}" x2="${MARGIN.left}" y1="${MARGIN.top}" y2="${MARGIN.top + plotHeight}" stroke="#333"/>`);
  parts.push(
    `<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${MARGIN.top + plotHeight}" y2="${MARGIN.top + plotHeight}" stroke="#333"/>`,
  );

  results.forEach((r, index) => {
    const centre = MARGIN.left + group * (index + 0.5);
    servers.forEach((server, i) => {
      const x = centre - (bar * servers.length) / 2 + bar * i;
      const value = rps(r.medians[server]);
      if (value === undefined) {
        parts.push(text(x + bar / 2, y(0) - 6, '—', 'text-anchor="middle" font-size="10" fill="#a33"'));
        return;
      }
      const barTop = y(value);
      parts.push(
        `<rect x="${(x + 1).toFixed(1)}" y="${barTop.toFixed(1)}" width="${(bar - 2).toFixed(1)}" height="${(y(0) - barTop).toFixed(1)}" fill="${COLOURS[server]}"/>`,
      );
      parts.push(text(x + bar / 2, barTop - 5, value.toFixed(0), 'text-anchor="middle" font-size="9"'));
    });
    parts.push(text(centre, y(0) + 18, r.id, 'text-anchor="middle" font-size="12" font-weight="bold"'));
    parts.push(
      text(
        centre,
        y(0) + 32,
        r.title.length > 34 ? `${r.title.slice(0, 33)}…` : r.title,
        'text-anchor="middle" font-size="9.5" fill="#555"',
      ),
    );
    ratios(r, references).forEach((line, i) =>
      parts.push(text(centre, y(0) + 48 + 13 * i, line, 'text-anchor="middle" font-size="10.5" fill="#2f6db5"')),
    );
  });
  parts.push(
    text(
      WIDTH / 2,
      HEIGHT - 12,
      "scenario (the project's throughput over each reference's below each)",
      'text-anchor="middle" font-size="12"',
    ),
  );

  // The legend in one row between the subtitle and the plot, clear of any bar.
  const legendY = MARGIN.top - 22;
  let legendX = MARGIN.left;
  for (const server of servers) {
    parts.push(`<rect x="${legendX}" y="${legendY - 10}" width="12" height="12" fill="${COLOURS[server]}"/>`);
    parts.push(text(legendX + 17, legendY, LEGEND[server], 'font-size="11"'));
    legendX += 17 + LEGEND[server].length * 6 + 18;
  }

  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="Helvetica, Arial, sans-serif" role="img" aria-label="Throughput per scenario, the project beside its references">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#fff"/>`,
    ...parts.map((p) => `  ${p}`),
    '</svg>',
    '',
  ].join('\n');
}
