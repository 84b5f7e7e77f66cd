import { randomBytes } from "node:crypto";

// Crockford's base32: no I, L, O or U, so an id read aloud or retyped survives.
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/**
 * A 26-character id that sorts by creation time (a ULID: 48 bits of
 * milliseconds, then 80 random bits), e.g. `01JDX3W8Z4Q7N2M5K8R1T6V9YB`.
 */
export function newId(now: number = Date.now()): string {
  let time = "";
  let rest = Math.floor(now);
  for (let index = 0; index < 10; index += 1) {
    time = ALPHABET[rest % 32] + time;
    rest = Math.floor(rest / 32);
  }
  return time + randomTail();
}

// Random bytes for 256 ids at a time: one call into the system's generator instead of one per id (a run makes many).
const BYTES_PER_ID = 16;
const POOL_BYTES = BYTES_PER_ID * 256;
let pool = Buffer.alloc(0);
let poolOffset = 0;

/** 16 random characters, each from its own random byte, never reusing a byte. */
function randomTail(): string {
  if (poolOffset + BYTES_PER_ID > pool.length) {
    pool = randomBytes(POOL_BYTES);
    poolOffset = 0;
  }
  let tail = "";
  for (let index = 0; index < BYTES_PER_ID; index += 1) tail += ALPHABET[pool[poolOffset + index]! % 32];
  poolOffset += BYTES_PER_ID;
  return tail;
}
