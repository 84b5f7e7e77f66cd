/**
 * Collects streamed text and hands it on at most every `intervalMs`, so a
 * model that streams a token at a time costs one stored event per interval,
 * not one per token. Deliveries happen in order.
 */
export class TextBatcher {
  private buffer = "";
  private timer: ReturnType<typeof setTimeout> | null = null;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly deliver: (text: string) => Promise<void> | void,
    private readonly intervalMs = 100,
  ) {}

  push(text: string): void {
    if (text === "") return;
    this.buffer += text;
    this.timer ??= setTimeout(() => void this.drain(), this.intervalMs);
  }

  /** Delivers what is buffered and resolves once everything pushed so far is delivered. */
  async flush(): Promise<void> {
    await this.drain();
  }

  private drain(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const text = this.buffer;
    this.buffer = "";
    if (text !== "") this.chain = this.chain.then(() => this.deliver(text));
    return this.chain;
  }
}
