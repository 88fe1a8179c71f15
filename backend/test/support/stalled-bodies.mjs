/**
 * The slow-body attacker of the abuse suite, in a process of its own (as an attacker is another machine): the test's
 * process then measures the API as a user would, without its own event loop handling thousands of sockets meanwhile.
 *
 *     node stalled-bodies.mjs <url> <path> <timed> <anonymous> <held> <token>
 *
 * Every connection announces a 1,000-byte JSON body and sends 4 bytes of it. In three groups, one after the other:
 * - `timed`, with the token, opened while the server is idle, so that the server's clock for each starts within a
 *   moment of our write: how long a stalled body with a token is held, as seen from here;
 * - `anonymous`, without a token, all at once (a flood), each waited for until it has its answer (a 401 before the
 *   body) or is closed without one; `refusedInMs`, from the first write to the last answer, is that flood's figure;
 * - `held`, with the token: what the server must hold for up to 30 s, the slow sockets the API is timed beside.
 * Prints `{"ready":true,"refusedInMs":...}` once the three groups are open (and the flood answered), and a last JSON
 * line once the server has closed them all: per group the statuses answered (0 for none), the longest time from our
 * write to the close and from the first byte answered to the close, and the first and last close (epoch ms).
 */
import { connect } from 'node:net';

const [url, path, timedCount, anonymousCount, heldCount, token] = process.argv.slice(2);
const target = new URL(url);

function open(withToken) {
  return new Promise((resolve, reject) => {
    const answers = [];
    let started = 0;
    let answeredAt = 0;
    let answered;
    const firstAnswer = new Promise((done) => (answered = done));
    const socket = connect(Number(target.port), target.hostname, () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: ${target.host}\r\nContent-Type: application/json\r\n` +
          `Content-Length: 1000\r\n${withToken ? `Authorization: Bearer ${token}\r\n` : ''}\r\n{"na`,
      );
      started = Date.now();
      resolve({
        started,
        status: () => Number(/^HTTP\/1\.1 (\d{3})/.exec(Buffer.concat(answers).toString('latin1'))?.[1] ?? 0),
        answered: firstAnswer,
        closed: new Promise((done) =>
          socket.once('close', () => {
            const at = Date.now();
            answered(at);
            done({ at, afterWrite: at - started, afterAnswer: answeredAt ? at - answeredAt : null });
          }),
        ),
      });
    });
    socket.on('error', () => undefined);
    socket.once('error', reject);
    // Read what the server answers (a 401 at once without a token), so that its closing reaches us.
    socket.on('data', (chunk) => {
      if (!answeredAt) {
        answeredAt = Date.now();
        answered(answeredAt);
      }
      answers.push(chunk);
    });
  });
}

const openMany = (count, withToken) => Promise.all(Array.from({ length: Number(count) }, () => open(withToken)));

async function settle(group) {
  const closed = await Promise.all(group.map((each) => each.closed));
  return {
    statuses: [...new Set(group.map((each) => each.status()))],
    afterWrite: Math.max(...closed.map((each) => each.afterWrite)),
    afterAnswer: Math.max(...closed.map((each) => each.afterAnswer ?? Number.NaN)),
    firstClosedAt: Math.min(...closed.map((each) => each.at)),
    lastClosedAt: Math.max(...closed.map((each) => each.at)),
  };
}

const timed = await openMany(timedCount, true);
const anonymous = await openMany(anonymousCount, false);
const lastAnswer = Math.max(...(await Promise.all(anonymous.map((each) => each.answered))));
const refusedInMs = lastAnswer - Math.min(...anonymous.map((each) => each.started));
const held = await openMany(heldCount, true);
process.stdout.write(`${JSON.stringify({ ready: true, refusedInMs })}\n`);
const [timedResult, anonymousResult, heldResult] = await Promise.all([timed, anonymous, held].map(settle));
process.stdout.write(`${JSON.stringify({ timed: timedResult, anonymous: anonymousResult, held: heldResult })}\n`);
