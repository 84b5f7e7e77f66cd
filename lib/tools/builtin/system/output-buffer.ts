import { truncateMiddle, type KeptText } from "../shared/limits";

/**
 * Collects a stream's text while keeping memory bounded: the first and last
 * `limit / 2` characters are kept, the middle is counted and dropped.
 */
export class OutputBuffer {
  private head = "";
  private tail = "";
  private total = 0;

  constructor(private readonly limit = 200_000) {}

  append(chunk: string): void {
    this.total += chunk.length;
    const half = Math.floor(this.limit / 2);
    if (this.head.length < half) {
      const room = half - this.head.length;
      this.head += chunk.slice(0, room);
      chunk = chunk.slice(room);
    }
    if (chunk === "") return;
    this.tail += chunk;
    // Trim only once the tail is twice its size, so appends stay cheap.
    if (this.tail.length > half * 2) this.tail = this.tail.slice(this.tail.length - half);
  }

  /** Characters received so far, kept or not. */
  get length(): number {
    return this.total;
  }

  /** What is kept, with the whole's length, for a later cut that must count what was dropped here too. */
  kept(): KeptText {
    const half = Math.floor(this.limit / 2);
    const tail = this.tail.length > half ? this.tail.slice(this.tail.length - half) : this.tail;
    return { head: this.head, tail, total: this.total };
  }

  /** The kept text, with a notice of how much was dropped from its middle. */
  text(): string {
    return truncateMiddle(this.kept(), Number.POSITIVE_INFINITY);
  }
}
