// One wrk run against one server. wrk runs in a process of its own on one thread (-t1), so the
// server has the other core; bench/harness/wrk-requests.lua sends the scenario's requests and reports.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { LoadGenerator, LoadResult, LoadSpec } from './load.js';
import { type BenchRequest, JSON_TYPE } from '../scenarios/scenarios.js';

const SCRIPT = new URL('./wrk-requests.lua', import.meta.url).pathname;
const RESULT_MARK = 'BENCH-RESULT ';
const TICKS_PER_SECOND = 100; // USER_HZ, fixed at 100 on Linux
/** Generous: a slow answer is a slow answer, measured as such, not a socket error. */
const TIMEOUT = '10s';

interface WrkReport {
  readonly durationMicros: number;
  readonly requests: number;
  readonly status: number;
  readonly connect: number;
  readonly read: number;
  readonly write: number;
  readonly timeout: number;
  readonly p50Micros: number;
  readonly p99Micros: number;
  readonly cpuTicks: number;
}

/** One request a line, as wrk-requests.lua reads them: "METHOD PATH" or "METHOD PATH CONTENT-TYPE BODY". */
export function requestLine({ method, path, body, contentType = JSON_TYPE }: BenchRequest): string {
  if (/\s/.test(path) || /\s/.test(contentType) || (body !== undefined && /[\r\n]/.test(body)))
    throw new Error(`a request wrk cannot be given in one line: ${method} ${path}`);
  return body === undefined ? `${method} ${path}` : `${method} ${path} ${contentType} ${body}`;
}

/** wrk's arguments, `origin` and `requestsFile` as given (the log shows them as placeholders). */
export function wrkArguments(spec: Omit<LoadSpec, 'requests' | 'expectedStatus'>, requestsFile: string): string[] {
  const headers = Object.entries(spec.headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  return [
    '-t1',
    `-c${spec.connections}`,
    `-d${spec.seconds}s`,
    '--timeout',
    TIMEOUT,
    ...headers,
    '-s',
    SCRIPT,
    spec.origin,
    '--',
    requestsFile,
  ];
}

function runProgram(program: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`${program} exited with ${code}:\n${stderr}${stdout}`))));
  });
}

async function runWrk(program: string, requestsFile: string, spec: LoadSpec): Promise<LoadResult> {
  writeFileSync(requestsFile, `${spec.requests.map(requestLine).join('\n')}\n`);
  const stdout = await runProgram(program, wrkArguments(spec, requestsFile));
  const line = stdout.split('\n').find((l) => l.startsWith(RESULT_MARK));
  if (line === undefined) throw new Error(`wrk printed no result line:\n${stdout}`);
  const report = JSON.parse(line.slice(RESULT_MARK.length)) as WrkReport;
  const expected = report.requests - report.status;
  return {
    requestsPerSecond: expected / (report.durationMicros / 1e6),
    p50Ms: report.p50Micros / 1000,
    p99Ms: report.p99Micros / 1000,
    responses: report.requests,
    failures: report.status + report.connect + report.read + report.write + report.timeout,
    generatorCpuSeconds: report.cpuTicks / TICKS_PER_SECOND,
  };
}

/** wrk at `program` (`version` as it names itself); the request list of each run is written to a file in `workDir`. */
export function wrkGenerator(program: string, version: string, workDir: string): LoadGenerator {
  return {
    name: 'wrk',
    describe: (connections, seconds) => {
      const args = wrkArguments(
        { origin: 'http://127.0.0.1:PORT', headers: { Authorization: 'Bearer KEY' }, connections, seconds },
        'REQUESTS-FILE',
      );
      const shown = args.map((a) => (a === SCRIPT ? relative(process.cwd(), SCRIPT) : /\s/.test(a) ? `'${a}'` : a));
      return `wrk ${version}: wrk ${shown.join(' ')}`;
    },
    run: (spec) => runWrk(program, join(workDir, 'wrk-requests.txt'), spec),
  };
}
