import { connect } from 'node:net';

export interface EndlessUpload {
  /** The answer's status, 0 when none came. */
  status: number;
  /** The answer's headers (lower-cased names) and body. */
  headers: Record<string, string>;
  body: string;
  /** Milliseconds from the first byte sent to the answer's status line, and from the answer to the connection's end. */
  answeredAfterMs: number;
  closedAfterAnswerMs: number;
}

/**
 * An upload that never ends: a chunked multipart body with `fields`, then a file part whose bytes keep coming, `chunk`
 * bytes every `everyMs` (0: as fast as the socket takes them; `afterAnswer`: another pace once answered), after the
 * answer and after the server's end of the stream too (the socket stays half-open), until the server closes the
 * connection or `giveUpMs` pass. What a client trying to hold a connection forever does.
 */
export function endlessUpload(
  url: string,
  path: string,
  token: string,
  fields: Record<string, string>,
  options: {
    chunk?: number;
    everyMs?: number;
    afterAnswer?: { chunk: number; everyMs: number };
    giveUpMs?: number;
  } = {},
): Promise<EndlessUpload> {
  const { chunk = 1024 * 1024, everyMs = 0, giveUpMs = 30_000 } = options;
  const target = new URL(url);
  const boundary = 'kora-endless-boundary';
  return new Promise((resolve) => {
    const socket = connect({ port: Number(target.port), host: target.hostname, allowHalfOpen: true });
    const started = Date.now();
    let answeredAt = 0;
    let response = Buffer.alloc(0);
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      clearTimeout(giveUp);
      socket.destroy();
      const text = response.toString('latin1');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      let body = rest.join('\r\n\r\n');
      if (headers['transfer-encoding'] === 'chunked')
        body = body.replace(/^[0-9a-f]+\r\n/i, '').replace(/\r\n0\r\n[\s\S]*$/, '');
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? 0),
        headers,
        body,
        answeredAfterMs: answeredAt ? answeredAt - started : -1,
        closedAfterAnswerMs: answeredAt ? Date.now() - answeredAt : -1,
      });
    };
    const giveUp = setTimeout(finish, giveUpMs);
    socket.on('data', (data: Buffer) => {
      response = Buffer.concat([response, data]);
      if (!answeredAt && response.includes('\r\n')) answeredAt = Date.now();
    });
    socket.on('close', finish);
    socket.on('error', finish);
    const frame = (data: Buffer): Buffer =>
      Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')]);
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: ${target.host}\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nTransfer-Encoding: chunked\r\n\r\n`,
    );
    const head = Object.entries(fields)
      .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join('');
    socket.write(
      frame(
        Buffer.from(
          `${head}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="endless.wav"\r\n` +
            'Content-Type: audio/wav\r\n\r\n',
        ),
      ),
    );
    const zeros = frame(Buffer.alloc(chunk));
    const slow = options.afterAnswer ? frame(Buffer.alloc(options.afterAnswer.chunk)) : zeros;
    const send = (): void => {
      if (done || socket.destroyed) return;
      const answered = answeredAt > 0;
      const more = socket.write(answered ? slow : zeros);
      const pause = answered && options.afterAnswer ? options.afterAnswer.everyMs : everyMs;
      if (pause > 0) setTimeout(send, pause);
      else if (more) setImmediate(send);
      else socket.once('drain', send);
    };
    send();
  });
}
