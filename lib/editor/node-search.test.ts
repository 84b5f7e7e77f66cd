import { describe, expect, it } from "vitest";
import { matchingNodes } from "./node-search";

const nodes = ["Step number 3, Output", "Step number 13, Output", "Step number 30, Output", "Write the note, Write a File tool, 1 problem", "Run inputs"].map((name, index) => ({ id: `n${index}`, name }));
const names = (query: string) => matchingNodes(nodes, query).map((node) => node.name);

describe("matchingNodes", () => {
  it("lists every node, in order, while nothing is typed", () => {
    expect(matchingNodes(nodes, "  ")).toBe(nodes);
  });

  it("matches the start of words, so a number finds itself and longer numbers, not numbers that end with it", () => {
    expect(names("number 3")).toEqual(["Step number 3, Output", "Step number 30, Output"]);
  });

  it("takes words in any order and case, by title, tool or problems", () => {
    expect(names("FILE write")).toEqual(["Write the note, Write a File tool, 1 problem"]);
    expect(names("problem")).toEqual(["Write the note, Write a File tool, 1 problem"]);
    expect(names("outp")).toHaveLength(3);
    expect(names("nothing like it")).toEqual([]);
  });
});
