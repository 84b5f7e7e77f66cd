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
  const random = randomBytes(16);
  let tail = "";
  for (let index = 0; index < 16; index += 1) tail += ALPHABET[(random[index] ?? 0) % 32];
  return time + tail;
}
