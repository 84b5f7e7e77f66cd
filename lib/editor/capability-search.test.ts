import { describe, expect, it } from "vitest";
import { CAPABILITIES } from "@/lib/tools/registry/capabilities";
import { CAPABILITY_SYNONYMS, capabilitiesForQuery, stem } from "./capability-search";

describe("capabilitiesForQuery", () => {
  it.each([
    ["write a file", ["file.write"]],
    ["Write files", ["file.write"]],
    ["save a file", ["file.write"]],
    ["read a file", ["file.read"]],
    ["edit a file", ["file.edit"]],
    ["list a folder", ["file.list"]],
    ["run a shell command", ["system.shell"]],
    ["query postgres", ["db.query"]],
    ["send an email", ["message.send"]],
    ["draw a chart", ["chart.render"]],
    ["search the web", ["web.search"]],
    ["http request", ["web.request"]],
  ])("%s -> %j", (query, expected) => {
    expect(capabilitiesForQuery(query)).toEqual(expected);
  });

  it("finds every tag a single broad word covers", () => {
    expect(capabilitiesForQuery("search")).toEqual(expect.arrayContaining(["file.search", "web.search"]));
    expect(capabilitiesForQuery("database")).toEqual(expect.arrayContaining(["db.connect", "db.schema", "db.query"]));
  });

  it("finds nothing for words no capability covers, or only stop words", () => {
    expect(capabilitiesForQuery("banana")).toEqual([]);
    expect(capabilitiesForQuery("write a banana")).toEqual([]);
    expect(capabilitiesForQuery("a the of")).toEqual([]);
    expect(capabilitiesForQuery("")).toEqual([]);
  });

  it("only maps to tags that exist", () => {
    for (const tags of Object.values(CAPABILITY_SYNONYMS)) {
      for (const tag of tags) expect(Object.keys(CAPABILITIES)).toContain(tag);
    }
  });

  it("stems plurals and -ing forms onto the same word", () => {
    expect(stem("files")).toBe(stem("file"));
    expect(stem("writing")).toBe(stem("write"));
    expect(stem("queries")).not.toBe("");
  });
});
