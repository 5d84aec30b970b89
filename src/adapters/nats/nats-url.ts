// A NATS URL as the client takes it, and as a log line may show it. The NATS client reads only
// the host and port of a server URL: a user and password (nats://user:password@host) or a
// token (nats://token@host, a user with no password) given there are taken out into the
// connection's options, so they never appear in a server name that the client reports (its
// status events name the server), and a description shows neither password nor token.
import type { ConnectionOptions } from '@nats-io/transport-node';

type Credentials = Pick<ConnectionOptions, 'user' | 'pass' | 'token'>;

/** What a token stands as in a described NATS URL. */
const HIDDEN_TOKEN = '***';

/** The user and password, or the token, that `url` carries (decoded), or none. */
function credentialsOf(url: URL): Credentials {
  const user = decodeURIComponent(url.username);
  const pass = decodeURIComponent(url.password);
  if (user === '') return {};
  return pass === '' ? { token: user } : { user, pass };
}

/** The connection options that `url` (nats:// or tls://) stands for. */
export function natsServerOptions(url: string): Pick<ConnectionOptions, 'servers' | 'tls'> & Credentials {
  const parsed = new URL(url);
  const port = parsed.port === '' ? '4222' : parsed.port;
  return {
    servers: `${parsed.hostname}:${port}`,
    ...credentialsOf(parsed),
    ...(parsed.protocol === 'tls:' ? { tls: {} } : {}),
  };
}

/**
 * The NATS server of `url` and its `stream`, as a log line may name them: the URL without a
 * password, with a token replaced, and without the query and fragment, which the client ignores.
 */
export function describeNats(url: string, stream: string): string {
  const parsed = new URL(url);
  const hidesToken = 'token' in credentialsOf(parsed);
  parsed.password = '';
  if (hidesToken) parsed.username = HIDDEN_TOKEN;
  parsed.search = '';
  parsed.hash = '';
  return `nats ${parsed.toString()} (stream ${stream})`;
}
