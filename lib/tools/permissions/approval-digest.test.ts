import { describe, expect, it } from "vitest";
import { approvalDigest, canonicalJson } from "./approval-digest";

describe("approvalDigest", () => {
  const preview = { kind: "command", command: "ls", workingFolder: ".", background: false };

  it("is the same for equal arguments and previews whatever the key order", () => {
    expect(approvalDigest({ a: 1, b: [1, { c: 2, d: 3 }] }, preview)).toBe(approvalDigest({ b: [1, { d: 3, c: 2 }], a: 1 }, { ...preview }));
    expect(approvalDigest({}, preview)).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("changes when an argument or the preview changes", () => {
    const digest = approvalDigest({ command: "ls" }, preview);
    expect(approvalDigest({ command: "ls " }, preview)).not.toBe(digest);
    expect(approvalDigest({ command: "ls" }, { ...preview, workingFolder: "sub" })).not.toBe(digest);
  });

  it("canonical JSON drops undefined members like JSON does", () => {
    expect(canonicalJson({ b: undefined, a: "x" })).toBe('{"a":"x"}');
    expect(canonicalJson([undefined])).toBe("[null]");
  });
});
