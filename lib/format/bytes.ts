/** Counts grouped as people read them: 1,000. */
const count = (value: number): string => value.toLocaleString("en-US");

/**
 * A size in words: 950 bytes, 12.3 KB, 95.5 MB (powers of 1,000, as the
 * studio's caps are written: "the 1 MB a step stores"). Pure, for the server
 * and the browser alike.
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1_000) return `${count(bytes)} bytes`;
  if (bytes < 1_000_000) return `${(bytes / 1_000).toFixed(1)} KB`;
  if (bytes < 1_000_000_000) return `${(bytes / 1_000_000).toFixed(1)} MB`;
  return `${(bytes / 1_000_000_000).toFixed(1)} GB`;
}
