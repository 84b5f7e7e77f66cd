import { describe, expect, it } from "vitest";
import { hiddenCharactersOf } from "./hidden-characters";

describe("hiddenCharactersOf", () => {
  const command = (text: string) => ({ kind: "command" as const, command: text, workingFolder: ".", background: false });

  it("finds direction-changing characters in a command", () => {
    expect(hiddenCharactersOf(command("echo \u202E#"), {})).toEqual({ bidi: true, hidden: true });
  });

  it("finds invisible characters and long blank runs without calling them direction-changing", () => {
    expect(hiddenCharactersOf(command("echo\u200B"), {})).toEqual({ bidi: false, hidden: true });
    expect(hiddenCharactersOf(command(`echo${" ".repeat(20)}x`), {})).toEqual({ bidi: false, hidden: true });
  });

  it("looks at the arguments too, keys included", () => {
    expect(hiddenCharactersOf(command("ls"), { note: ["fine", { "key\u2066": 1 }] })).toEqual({ bidi: true, hidden: true });
  });

  it("reads file lines as files: tabs and indentation are not hidden, a folded line with a zero-width space is", () => {
    const change = (text: string, folded = false) => ({
      kind: "file-change" as const,
      path: "a.go",
      change: "modify" as const,
      added: 1,
      removed: 0,
      rows: folded
        ? [{ kind: "omitted" as const, lines: 1, added: 1, removed: 0, flagged: [{ kind: "added" as const, text, oldNumber: null, newNumber: 1 }] }]
        : [{ kind: "added" as const, text, oldNumber: null, newNumber: 1 }],
    });
    expect(hiddenCharactersOf(change("\t\tif x {"), { content: "\t\tif x {\n" })).toEqual({ bidi: false, hidden: false });
    expect(hiddenCharactersOf(change("x\u200By", true), {})).toEqual({ bidi: false, hidden: true });
  });
});
