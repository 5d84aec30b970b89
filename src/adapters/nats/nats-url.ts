// A NATS URL as the client takes it. The NATS client reads only the host and port of a server
// URL: a user and password (nats://user:password@host) or a token (nats://token@host) given
// there are taken out into the connection's options, so they never appear in a server name
// that the client reports (its status events name the server).
import type { ConnectionOptions } from '@nats-io/transport-node';

/** The connection options that `url` (nats:// or tls://) stands for. */
export function natsServerOptions(url: string): Pick<ConnectionOptions, 'servers' | 'user' | 'pass' | 'token' | 'tls'> {
  const parsed = new URL(url);
  const user = decodeURIComponent(parsed.username);
  const pass = decodeURIComponent(parsed.password);
  const port = parsed.port === '' ? '4222' : parsed.port;
  return {
    servers: `${parsed.hostname}:${port}`,
    ...(user !== '' && pass !== '' ? { user, pass } : {}),
    ...(user !== '' && pass === '' ? { token: user } : {}),
    ...(parsed.protocol === 'tls:' ? { tls: {} } : {}),
  };
}
