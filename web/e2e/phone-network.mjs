// A phone's network between Chromium and the server, for the browser suite and bench:web: a TCP proxy that limits
// the upload's rate, adds latency and can cut every connection for a while (a train, a lift, a switch from Wi-Fi to
// 4G). Chromium's own emulation (CDP `Network.emulateNetworkConditions`) holds a request body and lets the server have
// it only at the end, and its `offline` fails new requests but not the one under way; this one delivers bytes at the
// rate a real uplink does and resets connections mid-request, so the server sees what it would see.
import { createServer, connect } from 'node:net';

/**
 * Listens on a free loopback port and forwards to `targetPort`. `shape({ upBytesPerSecond, latencyMs })` sets the
 * conditions (none by default); `cut(ms)` resets every open connection and refuses new ones for `ms`; `received`
 * counts the bytes forwarded to the server.
 */
export async function startPhoneNetwork(targetPort) {
  const sockets = new Set();
  let conditions = { upBytesPerSecond: 0, latencyMs: 0 };
  let cutUntil = 0;
  let received = 0;
  const server = createServer((client) => {
    if (Date.now() < cutUntil) {
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(targetPort, '127.0.0.1');
    sockets.add(client);
    sockets.add(upstream);
    const forget = () => {
      sockets.delete(client);
      sockets.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', forget);
    upstream.on('error', forget);
    client.on('close', forget);
    upstream.on('close', forget);
    // Each direction keeps its order: a chunk leaves no earlier than the one before it, and half the latency later.
    const delayed = (from, to, count) => {
      let next = 0;
      from.on('data', (chunk) => {
        const now = Date.now();
        let at = Math.max(now + conditions.latencyMs / 2, next);
        if (count && conditions.upBytesPerSecond > 0) {
          // The uplink's rate: this chunk takes its share of a second after the previous one left.
          at += (chunk.length * 1000) / conditions.upBytesPerSecond;
          // Hold the sender back while more than a second of data waits here (its socket buffers fill, as on a
          // slow link).
          if (at - now > 1000) {
            from.pause();
            setTimeout(() => from.resume(), at - now - 1000);
          }
        }
        next = at;
        const send = () => {
          if (to.destroyed) return;
          if (count) received += chunk.length;
          to.write(chunk);
        };
        if (at <= now) send();
        else setTimeout(send, at - now);
      });
      from.on('end', () => setTimeout(() => to.end(), Math.max(0, next - Date.now())));
    };
    delayed(client, upstream, true);
    delayed(upstream, client, false);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    get received() {
      return received;
    },
    shape(next) {
      conditions = { upBytesPerSecond: 0, latencyMs: 0, ...next };
    },
    /** Resets every connection now and refuses new ones for `ms`. */
    cut(ms) {
      cutUntil = Date.now() + ms;
      for (const socket of sockets) socket.resetAndDestroy();
      sockets.clear();
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}
