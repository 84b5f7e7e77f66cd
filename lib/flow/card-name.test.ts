import { describe, expect, it } from "vitest";
import { cardName } from "./card-name";

describe("cardName", () => {
  it("names a tool card by its title and its tool, then its problems", () => {
    expect(cardName({ kind: "tool", title: "Write the note", toolTitle: "Write a File", problems: 2 })).toBe("Write the note, Write a File tool, 2 problems");
    expect(cardName({ kind: "tool", title: "Write the note", toolTitle: "Write a File", problems: 1 })).toBe("Write the note, Write a File tool, 1 problem");
  });

  it("does not repeat a kind or tool the title already is", () => {
    expect(cardName({ kind: "input", title: "Run inputs" })).toBe("Run inputs");
    expect(cardName({ kind: "tool", title: "Write a File", toolTitle: "Write a File" })).toBe("Write a File, tool");
    expect(cardName({ kind: "router", title: "Check" })).toBe("Check, Router");
  });

  it("says a card's output is pinned, before its problems", () => {
    expect(cardName({ kind: "tool", title: "Fetch", toolTitle: "HTTP Request", pinned: true, problems: 1 })).toBe("Fetch, HTTP Request tool, output pinned, 1 problem");
  });

  it("ends with the step's status in the run view", () => {
    expect(cardName({ kind: "tool", title: "Fetch", toolTitle: "HTTP Request", status: "waiting for you" })).toBe("Fetch, HTTP Request tool, waiting for you");
  });
});
