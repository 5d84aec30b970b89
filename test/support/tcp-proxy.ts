// A TCP proxy a test controls, to play a network outage between the service and its database.
import { createServer, type Server, type Socket, connect } from 'node:net';

export type Outage =
  /** Connections are reset: open ones are destroyed, new ones closed at once (a server that is down). */
  | 'reset'
  /** Connections go silent: bytes are swallowed and nothing answers (a cut cable, a dead host). */
  | 'silent';

export interface TcpProxy {
  readonly port: number;
  cut(outage: Outage): void;
  /** Forwards again. After a silent outage every connection that lived through it is reset, as bytes were lost. */
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  let outage: Outage | undefined;
  const pairs = new Set<[Socket, Socket | undefined]>();
  const destroy = (pair: [Socket, Socket | undefined]) => {
    pair[0].destroy();
    pair[1]?.destroy();
    pairs.delete(pair);
  };

  const server: Server = createServer((client) => {
    client.on('error', () => {});
    if (outage === 'reset') {
      client.destroy();
      return;
    }
    if (outage === 'silent') {
      const pair: [Socket, Socket | undefined] = [client, undefined];
      pairs.add(pair);
      client.on('data', () => {});
      return;
    }
    const upstream = connect(targetPort, targetHost);
    const pair: [Socket, Socket | undefined] = [client, upstream];
    pairs.add(pair);
    upstream.on('error', () => destroy(pair));
    client.on('close', () => destroy(pair));
    upstream.on('close', () => destroy(pair));
    // Bytes flow only while there is no outage; in a silent one they are dropped on the floor.
    client.on('data', (chunk) => void (outage === undefined && upstream.write(chunk)));
    upstream.on('data', (chunk) => void (outage === undefined && client.write(chunk)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };

  return {
    port,
    cut(kind) {
      outage = kind;
      if (kind === 'reset') for (const pair of [...pairs]) destroy(pair);
    },
    restore() {
      if (outage === 'silent') for (const pair of [...pairs]) destroy(pair);
      outage = undefined;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const pair of [...pairs]) destroy(pair);
        server.close(() => resolve());
      }),
  };
}
