// Where a V8 CPU profile (.cpuprofile, from node --cpu-prof) spends its time: the functions
// with the most self time, with file:line. Usable alone: tsx bench/profile-top.ts FILE [N].
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
}

export interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
  readonly startTime: number;
  readonly endTime: number;
}

export interface HotSpot {
  readonly name: string;
  readonly location: string;
  readonly selfMs: number;
  /** Of the busy time: every sample but (idle). */
  readonly share: number;
}

export interface SelfTime {
  readonly spots: readonly HotSpot[];
  readonly busyMs: number;
  readonly idleMs: number;
}

/** Monotonic microseconds, as profiles and process.hrtime count them. */
export type Window = readonly [startMicros: number, endMicros: number];

function location(url: string, line: number, root: string): string {
  if (url === '') return '(native)';
  const path = url.startsWith('file://') ? relative(root, fileURLToPath(url)) : url;
  return `${path}:${line + 1}`;
}

/** Self time of every function (by name and place), highest first; only samples within `window` when given. */
export function selfTime(profile: CpuProfile, root = process.cwd(), window?: Window): SelfTime {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const micros = new Map<number, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (window !== undefined && (at < window[0] || at > window[1])) return;
    // A sample stands for the time until the next one.
    micros.set(id, (micros.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
  });
  const byFunction = new Map<string, { name: string; location: string; micros: number }>();
  let idle = 0;
  for (const [id, time] of micros) {
    const frame = byNode.get(id)!.callFrame;
    if (frame.functionName === '(idle)') {
      idle += time;
      continue;
    }
    const name = frame.functionName === '' ? '(anonymous)' : frame.functionName;
    const where = location(frame.url, frame.lineNumber, root);
    const key = `${name} ${where}`;
    byFunction.set(key, { name, location: where, micros: (byFunction.get(key)?.micros ?? 0) + time });
  }
  const busy = [...byFunction.values()].reduce((sum, f) => sum + f.micros, 0);
  const spots = [...byFunction.values()]
    .map((f) => ({ name: f.name, location: f.location, selfMs: f.micros / 1000, share: busy === 0 ? 0 : f.micros / busy }))
    .sort((a, b) => b.selfMs - a.selfMs);
  return { spots, busyMs: busy / 1000, idleMs: idle / 1000 };
}

/** Self time summed by where the code comes from: a package, a file of ours, Node itself, or native work. */
export function bySource(spots: readonly HotSpot[]): { source: string; share: number }[] {
  const shares = new Map<string, number>();
  for (const spot of spots) {
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(spot.location)?.[1];
    const source =
      pkg ??
      (spot.location.startsWith('node:') ? 'node (JavaScript of node itself)' : spot.location === '(native)' ? `${spot.name} (native)` : spot.location.replace(/:\d+$/, ''));
    shares.set(source, (shares.get(source) ?? 0) + spot.share);
  }
  return [...shares].map(([source, share]) => ({ source, share })).sort((a, b) => b.share - a.share);
}

export function formatHotSpots(spots: readonly HotSpot[]): string {
  return spots
    .map((s, i) => `${String(i + 1).padStart(5)}. ${(s.share * 100).toFixed(1).padStart(5)}%  ${s.selfMs.toFixed(0).padStart(6)} ms  ${s.name}  ${s.location}`)
    .join('\n');
}

export const readProfile = (path: string): CpuProfile => JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [file, count = '15'] = process.argv.slice(2);
  if (file === undefined) {
    process.stderr.write('usage: tsx bench/profile-top.ts FILE.cpuprofile [N]\n');
    process.exit(2);
  }
  const { spots, busyMs, idleMs } = selfTime(readProfile(file));
  process.stdout.write(`busy ${busyMs.toFixed(0)} ms, idle ${idleMs.toFixed(0)} ms; shares are of the busy time\n`);
  process.stdout.write(`${formatHotSpots(spots.slice(0, Number(count)))}\n`);
}
