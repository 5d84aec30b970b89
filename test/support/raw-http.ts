import { connect } from 'node:net';

/** Sends raw bytes to a server and returns everything it answers until it closes the connection. */
export function rawExchange(url: string, bytes: string, timeoutMs = 5000): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('no answer before the timeout'));
    }, timeoutMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    socket.write(bytes);
  });
}

/** The status code and the parsed JSON body of a raw HTTP/1.1 answer. */
export function parseRawAnswer(answer: string): { status: number; headers: string; json: any } {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), headers: head, json: JSON.parse(body) };
}
