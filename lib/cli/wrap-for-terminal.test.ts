import { describe, expect, it } from "vitest";
import { CONTINUATION, wrapForTerminal } from "./wrap-for-terminal";

describe("wrapForTerminal", () => {
  it("leaves lines that fit alone", () => {
    expect(wrapForTerminal("short\nlines", 80)).toBe("short\nlines");
  });

  it("breaks a long line into marked continuations, keeping every character in order", () => {
    const line = `echo hello; ${"x".repeat(100)}; rm -rf victim`;
    const wrapped = wrapForTerminal(line, 40).split("\n");
    expect(wrapped.every((piece) => [...piece].length <= 40)).toBe(true);
    expect(wrapped.slice(1).every((piece) => piece.startsWith(CONTINUATION))).toBe(true);
    expect(wrapped.map((piece, index) => (index === 0 ? piece : piece.slice(CONTINUATION.length))).join("")).toBe(line);
  });
});
