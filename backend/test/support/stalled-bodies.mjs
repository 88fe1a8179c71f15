/**
 * The slow-body attacker of the abuse suite, in a process of its own (as an attacker is another machine): the test's
 * process then measures the API as a user would, without its own event loop handling thousands of sockets meanwhile.
 *
 *     node stalled-bodies.mjs <url> <path> <anonymous> <signed-in> [token]
 *
 * Opens `signed-in` connections with the token first (while the server is idle), then `anonymous` without one; each
 * announces a 1,000-byte JSON body and sends 4 bytes of it. Prints `{"ready":true}` once every connection is open,
 * and a last JSON line when the server has closed them all: per group the statuses answered (0 for none), the longest
 * time from our write to the close and from the first byte answered to the close.
 */
import { connect } from 'node:net';

const [url, path, anonymousCount, signedInCount, token = ''] = process.argv.slice(2);
const target = new URL(url);

function open(withToken) {
  return new Promise((resolve, reject) => {
    const answers = [];
    let started = 0;
    let answeredAt = 0;
    const socket = connect(Number(target.port), target.hostname, () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: ${target.host}\r\nContent-Type: application/json\r\n` +
          `Content-Length: 1000\r\n${withToken ? `Authorization: Bearer ${token}\r\n` : ''}\r\n{"na`,
      );
      started = Date.now();
      resolve({
        status: () => Number(/^HTTP\/1\.1 (\d{3})/.exec(Buffer.concat(answers).toString('latin1'))?.[1] ?? 0),
        closed: new Promise((done) =>
          socket.once('close', () =>
            done({ afterWrite: Date.now() - started, afterAnswer: answeredAt ? Date.now() - answeredAt : null }),
          ),
        ),
      });
    });
    socket.on('error', () => undefined);
    socket.once('error', reject);
    // Read what the server answers (a 401 at once without a token), so that its closing reaches us.
    socket.on('data', (chunk) => {
      if (!answeredAt) answeredAt = Date.now();
      answers.push(chunk);
    });
  });
}

async function settle(group) {
  const closed = await Promise.all(group.map((each) => each.closed));
  return {
    statuses: [...new Set(group.map((each) => each.status()))],
    afterWrite: Math.max(...closed.map((each) => each.afterWrite)),
    afterAnswer: Math.max(...closed.map((each) => each.afterAnswer ?? Number.NaN)),
  };
}

const signedIn = await Promise.all(Array.from({ length: Number(signedInCount) }, () => open(true)));
const anonymous = await Promise.all(Array.from({ length: Number(anonymousCount) }, () => open(false)));
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
const [anonymousResult, signedInResult] = await Promise.all([settle(anonymous), settle(signedIn)]);
process.stdout.write(`${JSON.stringify({ anonymous: anonymousResult, signedIn: signedInResult })}\n`);
