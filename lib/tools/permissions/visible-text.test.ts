import { describe, expect, it } from "vitest";
import { hasBidiControl, markHiddenCharacters, toVisibleString } from "./visible-text";

describe("markHiddenCharacters", () => {
  it("marks every bidi control in logical order, so a Trojan Source command reads as it runs", () => {
    const command = "echo hi \u202E\u2066; rm -rf victim-a \u2069\u2066# \u2069\u202C";
    const marked = markHiddenCharacters(command);
    expect(toVisibleString(command)).toBe("echo hi ⟨U+202E⟩⟨U+2066⟩; rm -rf victim-a ⟨U+2069⟩⟨U+2066⟩# ⟨U+2069⟩⟨U+202C⟩");
    expect(marked.hasBidi).toBe(true);
    expect(marked.hasHidden).toBe(true);
    expect(marked.segments.filter((segment) => segment.kind === "mark").every((segment) => segment.kind === "mark" && segment.reason === "bidi")).toBe(true);
  });

  it.each([
    ["\u202A", "bidi"],
    ["\u202D", "bidi"],
    ["\u2067", "bidi"],
    ["\u2068", "bidi"],
    ["\u200E", "bidi"],
    ["\u200F", "bidi"],
    ["\u061C", "bidi"],
    ["\u200B", "invisible"],
    ["\u200C", "invisible"],
    ["\u200D", "invisible"],
    ["\u2060", "invisible"],
    ["\uFEFF", "invisible"],
    ["\u00AD", "invisible"],
    ["\u00A0", "invisible"],
    ["\u3000", "invisible"],
    ["\u3164", "invisible"],
    ["\uFE0F", "invisible"],
    ["\u{E0041}", "invisible"],
    ["\u2028", "invisible"],
    ["\u0000", "control"],
    ["\u001B", "control"],
    ["\r", "control"],
    ["\u007F", "control"],
    ["\u0085", "control"],
    ["\u009B", "control"],
  ])("marks U+%s as %s", (character, reason) => {
    const hex = character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
    expect(markHiddenCharacters(`a${character}b`).segments).toEqual([
      { kind: "text", text: "a" },
      { kind: "mark", text: `⟨U+${hex}⟩`, reason },
      { kind: "text", text: "b" },
    ]);
  });

  it("shows the length of a long run of blanks, and leaves short ones alone", () => {
    expect(toVisibleString(`echo hello${" ".repeat(2000)}; rm -rf victim-b`)).toBe("echo hello⟨2000 spaces⟩; rm -rf victim-b");
    expect(toVisibleString("a        b")).toBe("a        b");
    expect(toVisibleString(`a${"\t".repeat(9)}b`)).toBe("a⟨9 tabs⟩b");
    expect(toVisibleString(`a${" \t".repeat(5)}b`)).toBe("a⟨10 blanks⟩b");
  });

  it("shows the length of a long run of empty lines, so the command after it stays in view", () => {
    const command = `echo hello${"\n".repeat(2000)}rm -rf victim`;
    const marked = markHiddenCharacters(command);
    expect(toVisibleString(command)).toBe("echo hello⟨2000 line breaks⟩rm -rf victim");
    expect(marked.hasHidden).toBe(true);
    expect(marked.segments[1]).toEqual({ kind: "mark", text: "⟨2000 line breaks⟩", reason: "blank-run" });
    expect(toVisibleString(`a${"\r\n".repeat(1000)}b`)).toBe("a⟨2000 blanks: 1000 line breaks, 1000 carriage returns⟩b");
    expect(toVisibleString(`a${" \n".repeat(5)}b`)).toBe("a⟨10 blanks: 5 spaces, 5 line breaks⟩b");
  });

  it("leaves a few empty lines alone, still marking what sits between them", () => {
    expect(toVisibleString("a\n\n\n\nb")).toBe("a\n\n\n\nb");
    expect(toVisibleString(`a\n${" ".repeat(20)}\n\tb`)).toBe("a\n⟨20 spaces⟩\n⟨U+0009⟩b");
    expect(toVisibleString("a\r\nb")).toBe("a⟨U+000D⟩\nb");
    expect(toVisibleString(`a${"\n".repeat(10)}b`, { lineBreakRun: 10 })).toBe(`a${"\n".repeat(10)}b`);
    expect(toVisibleString(`a${"\n".repeat(11)}b`, { lineBreakRun: 10 })).toBe("a⟨11 line breaks⟩b");
  });

  it("escapes terminal control sequences and carriage returns", () => {
    expect(toVisibleString("echo hello; rm -rf victim-cli #\u001b[2K\recho hello")).toBe("echo hello; rm -rf victim-cli #⟨U+001B⟩[2K⟨U+000D⟩echo hello");
  });

  it("keeps line feeds as breaks, marks tabs unless told to keep them", () => {
    expect(toVisibleString("a\nb")).toBe("a\nb");
    expect(toVisibleString("a\nb", { keepLineFeeds: false })).toBe("a⟨U+000A⟩b");
    expect(toVisibleString("\tx")).toBe("⟨U+0009⟩x");
    expect(toVisibleString("\tx", { keepTabs: true })).toBe("\tx");
  });

  it("leaves printable text, including other scripts and emoji, as it is", () => {
    const text = "Grüße, мир, 世界, مرحبا 👋 — fine";
    expect(markHiddenCharacters(text)).toEqual({ segments: [{ kind: "text", text }], hasBidi: false, hasHidden: false });
    expect(markHiddenCharacters("")).toEqual({ segments: [], hasBidi: false, hasHidden: false });
  });

  it("hasBidiControl finds direction-changing characters only", () => {
    expect(hasBidiControl("ls \u2066")).toBe(true);
    expect(hasBidiControl("ls \u200B")).toBe(false);
  });
});
