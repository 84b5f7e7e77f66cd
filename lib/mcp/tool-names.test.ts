import { describe, expect, it } from "vitest";
import { resolveToolNames, sanitizeToolName } from "./tool-names";

describe("resolveToolNames", () => {
  it("keeps a remote tool's own name when nothing else has it", () => {
    const names = resolveToolNames(["read_file"], [{ server: "notes", prefix: null, tools: ["add_note"] }]);
    expect(names.get("notes")?.get("add_note")).toBe("add_note");
  });

  it("lets built-ins win, then uses the prefix, then the server name, then a number", () => {
    const names = resolveToolNames(
      ["search"],
      [
        { server: "alpha", prefix: "a", tools: ["search"] },
        { server: "beta", prefix: "a", tools: ["search"] },
        { server: "gamma", prefix: null, tools: ["search"] },
        { server: "gamma2", prefix: null, tools: ["search"] },
      ],
    );
    expect(names.get("alpha")?.get("search")).toBe("a__search");
    expect(names.get("beta")?.get("search")).toBe("beta__search");
    expect(names.get("gamma")?.get("search")).toBe("gamma__search");
    expect(names.get("gamma2")?.get("search")).toBe("gamma2__search");
  });

  it("numbers further clashes _2, _3", () => {
    const names = resolveToolNames(["echo", "tests__echo"], [{ server: "tests", prefix: null, tools: ["echo"] }]);
    expect(names.get("tests")?.get("echo")).toBe("tests__echo_2");
    const more = resolveToolNames(["echo", "tests__echo", "tests__echo_2"], [{ server: "tests", prefix: null, tools: ["echo"] }]);
    expect(more.get("tests")?.get("echo")).toBe("tests__echo_3");
  });

  it("gives the first server (in the order given) the plain name between two servers", () => {
    const names = resolveToolNames([], [
      { server: "a", prefix: null, tools: ["echo"] },
      { server: "b", prefix: null, tools: ["echo"] },
    ]);
    expect([names.get("a")?.get("echo"), names.get("b")?.get("echo")]).toEqual(["echo", "b__echo"]);
  });

  it("keeps names given before: removing the server that held a plain name renames nobody", () => {
    const first = resolveToolNames([], [
      { server: "a", prefix: null, tools: ["echo"] },
      { server: "b", prefix: null, tools: ["echo", "add"] },
    ]);
    const givenToB = Object.fromEntries(first.get("b")!);
    expect(givenToB).toEqual({ echo: "b__echo", add: "add" });
    // Server a is removed: b's echo stays b__echo (a saved workflow names it so), though "echo" is free now.
    const after = resolveToolNames([], [{ server: "b", prefix: null, tools: ["echo", "add"], given: givenToB }]);
    expect(Object.fromEntries(after.get("b")!)).toEqual({ echo: "b__echo", add: "add" });
  });

  it("lets no new tool take a name held by a server not listed now (disabled, or not yet confirmed)", () => {
    const names = resolveToolNames([], [{ server: "b", prefix: null, tools: ["echo"] }], ["echo"]);
    expect(names.get("b")?.get("echo")).toBe("b__echo");
  });

  it("gives a given name again even to a server listed after one offering the same tool", () => {
    const names = resolveToolNames([], [
      { server: "new", prefix: null, tools: ["echo"] },
      { server: "old", prefix: null, tools: ["echo"], given: { echo: "echo" } },
    ]);
    expect([names.get("new")?.get("echo"), names.get("old")?.get("echo")]).toEqual(["new__echo", "echo"]);
  });

  it("makes names a model API accepts", () => {
    expect(sanitizeToolName("files.read/v2")).toBe("files_read_v2");
    expect(sanitizeToolName("x".repeat(100))).toHaveLength(64);
    expect(sanitizeToolName("")).toBe("tool");
  });
});
