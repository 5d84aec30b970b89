// The load of an --outage run: an open-loop client that starts creates at a steady rate whatever
// the answers (unlike wrk, whose connections wait for theirs), over keep-alive HTTP, noting when
// each 201 arrived and the pet's id. Every UPDATE_EVERY-th new pet is then renamed UPDATES times,
// one change after the other's answer, so that its events have an order to keep: its names end
// in `.0` (the create), `.1`, `.2`, in the order they committed.
import { Agent, request } from 'node:http';

export const UPDATE_EVERY = 10;
export const UPDATES = 2;

/** One create answered 201. */
export interface PacedCreate {
  readonly petId: string;
  /** When the client meant to send it, and when its 201 arrived, in ms since the epoch. */
  readonly dueAtMs: number;
  readonly answeredAtMs: number;
}

export interface PacedLoad {
  readonly creates: readonly PacedCreate[];
  /** Of the pets renamed, by id: how many renames were answered 200 (UPDATES when all were). */
  readonly renamed: ReadonlyMap<string, number>;
  /** Creates and renames answered otherwise than 201 / 200, or not at all, by what came instead (`HTTP 503`, `ECONNRESET` …). */
  readonly failed: Readonly<Record<string, number>>;
  /** Creates the client started, and how many of them started more than 50 ms after their time (the client could not keep up). */
  readonly started: number;
  readonly late: number;
}

const now = (): number => performance.timeOrigin + performance.now();

/** One request's status and JSON body (status 0: no answer, for the reason `error` gives). */
function send(agent: Agent, origin: string, headers: Record<string, string>, method: string, path: string, body: object) {
  const text = JSON.stringify(body);
  const type = method === 'PATCH' ? 'application/merge-patch+json' : 'application/json';
  return new Promise<{ status: number; json: { id?: unknown }; error?: string }>((resolve) => {
    const req = request(
      new URL(path, origin),
      { method, agent, headers: { ...headers, 'content-type': type, 'content-length': Buffer.byteLength(text) } },
      (res) => {
        let answer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (answer += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, json: res.statusCode! < 300 ? (JSON.parse(answer) as { id?: unknown }) : {} }),
        );
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ status: 0, json: {}, error: err.code ?? err.message }));
    req.end(text);
  });
}

/** Starts `ratePerSecond` creates a second on `origin`; stop() ends them and answers what they did, once every request has its answer. */
export function startPacedCreates(origin: string, headers: Record<string, string>, ratePerSecond: number): { stop(): Promise<PacedLoad> } {
  // With a timeout, the agent drops an idle socket a second before the server's Keep-Alive
  // timeout says the server will: one reused just as the server closes it would fail the request.
  const agent = new Agent({ keepAlive: true, maxSockets: 256, timeout: 60_000 });
  const creates: PacedCreate[] = [];
  const renamed = new Map<string, number>();
  const pending = new Set<Promise<void>>();
  const failed: Record<string, number> = {};
  const fail = ({ status, error }: { status: number; error?: string }): void => {
    const reason = status === 0 ? (error ?? 'no answer') : `HTTP ${status}`;
    failed[reason] = (failed[reason] ?? 0) + 1;
  };
  let late = 0;
  let n = 0;
  const everyMs = 1000 / ratePerSecond;
  let next = now();

  const renames = async (petId: string, k: number): Promise<void> => {
    for (let step = 1; step <= UPDATES; step++) {
      const answer = await send(agent, origin, headers, 'PATCH', `/v1/pets/${petId}`, { name: `Outage ${k}.${step}` });
      if (answer.status !== 200) return fail(answer);
      renamed.set(petId, step);
    }
  };
  const createOne = async (k: number, dueAtMs: number): Promise<void> => {
    const answer = await send(agent, origin, headers, 'POST', '/v1/pets', { name: `Outage ${k}.0`, categoryId: 1 });
    if (answer.status !== 201 || typeof answer.json.id !== 'number') return fail(answer);
    const petId = String(answer.json.id);
    creates.push({ petId, dueAtMs, answeredAtMs: now() });
    if (k % UPDATE_EVERY === 0) await renames(petId, k);
  };
  const tick = (): void => {
    for (const at = now(); next <= at; next += everyMs, n++) {
      if (at - next > 50) late++;
      const request = createOne(n, next).finally(() => pending.delete(request));
      pending.add(request);
    }
    timer = setTimeout(tick, Math.max(0, next - now()));
  };
  let timer = setTimeout(tick, 0);
  return {
    stop: async () => {
      clearTimeout(timer);
      while (pending.size > 0) await Promise.all(pending);
      agent.destroy();
      return { creates, renamed, failed, started: n, late };
    },
  };
}
