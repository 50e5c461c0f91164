// Record ids: short, sortable by creation time, unique within a home.
import { randomBytes } from 'node:crypto';

// Crockford base32: no I, L, O, U, so an id read aloud or retyped from a terminal survives.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const TIME_CHARS = 10; // 50 bits of milliseconds: good until the year 37000.
const COUNTER_CHARS = 6; // 30 bits
const COUNTER_SPAN = 2 ** (COUNTER_CHARS * 5);

let lastTime = -1;
/**
 * Counts up across all ids this process makes, from a random start drawn once: ids made in the
 * same millisecond by two processes rarely collide, and no id costs a call to the system's
 * random source (one per millisecond did, on every busy call path).
 */
let counter = -1;

/**
 * A 16-character id whose string order is its creation order (ULID-like, but shorter, since
 * people type it in `switchboard runs show ID`): 10 characters of milliseconds, then 6 of the
 * process's counter. The counter never resets, so ids made by one process stay strictly
 * increasing; when it wraps within one millisecond the time part moves on by one.
 */
export function newRecordId(now: number = Date.now()): string {
  if (counter < 0) counter = randomBytes(4).readUInt32BE(0) % COUNTER_SPAN;
  let time = Math.max(now, lastTime);
  counter = (counter + 1) % COUNTER_SPAN;
  if (counter === 0 && time === lastTime) time += 1;
  lastTime = time;
  return encode(time, TIME_CHARS) + encode(counter, COUNTER_CHARS);
}

function encode(n: number, chars: number): string {
  let out = '';
  for (let i = 0; i < chars; i++) {
    out = ALPHABET[n % 32] + out;
    n = Math.floor(n / 32);
  }
  return out;
}
