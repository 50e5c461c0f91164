// Record ids: short, sortable by creation time, unique within a home.
import { randomBytes } from 'node:crypto';

// Crockford base32: no I, L, O, U, so an id read aloud or retyped from a terminal survives.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const TIME_CHARS = 10; // 50 bits of milliseconds: good until the year 37000.
const RANDOM_CHARS = 6; // 30 bits: ids made in the same millisecond by two processes rarely collide.

let lastTime = -1;
let lastRandom = 0;

/**
 * A 16-character id whose string order is its creation order (ULID-like, but shorter, since
 * people type it in `switchboard runs show ID`). Within one millisecond the random part counts up,
 * so ids made by one process stay strictly increasing.
 */
export function newRecordId(now: number = Date.now()): string {
  let time = Math.max(now, lastTime);
  let random: number;
  if (time === lastTime) {
    random = lastRandom + 1;
    if (random >= 2 ** (RANDOM_CHARS * 5)) {
      time += 1;
      random = randomBytes(4).readUInt32BE(0) >>> 3;
    }
  } else {
    random = randomBytes(4).readUInt32BE(0) >>> 3; // keep headroom for counting up
  }
  lastTime = time;
  lastRandom = random;
  return encode(time, TIME_CHARS) + encode(random, RANDOM_CHARS);
}

function encode(n: number, chars: number): string {
  let out = '';
  for (let i = 0; i < chars; i++) {
    out = ALPHABET[n % 32] + out;
    n = Math.floor(n / 32);
  }
  return out;
}
