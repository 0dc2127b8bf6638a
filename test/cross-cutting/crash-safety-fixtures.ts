// The machinery of the crash-safety suite (crash-safety.test.ts): one request on its own connection or a
// client's keep-alive one, and the server under test as a process restartable on the same database file.
import { type Agent, request } from 'node:http';
import { startServerProcess, TSX_ARGS, type TServerProcess } from '../support/process';

interface TReply {
  status: number;
  body: any;
}

/**
 * One request. Without an agent it goes on its own connection, so a failure is unambiguous: refused,
 * cut, or answered. With a keep-alive agent it reuses that client's connection.
 */
export function call(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
  agent?: Agent,
): Promise<TReply> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const url = new URL(path, base);
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        agent: agent ?? false,
        headers: {
          ...(agent ? {} : { connection: 'close' }),
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
          } catch (error) {
            reject(error);
          }
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** The server under test, restartable on the same database file. */
export class ServerProcess {
  private running?: TServerProcess;
  base = '';

  constructor(private readonly env: Record<string, string>) {}

  async start(): Promise<void> {
    this.running = await startServerProcess([...TSX_ARGS, 'server/main.ts'], { env: this.env, timeoutMs: 60_000 });
    this.base = this.running.url;
  }

  async kill(signal: NodeJS.Signals): Promise<void> {
    await this.running?.stop(signal);
  }
}
