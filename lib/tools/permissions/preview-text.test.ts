import { describe, expect, it } from "vitest";
import { previewText } from "./preview-text";

describe("previewText", () => {
  it("says where a command runs in full, so a person knows which folder it is", () => {
    expect(previewText({ kind: "command", command: "rm -rf reports", workingFolder: "reports", folder: "/srv/team-a/reports", background: false })).toBe(
      "$ rm -rf reports\n(in /srv/team-a/reports)",
    );
    // Approvals stored before the folder was recorded keep their old wording.
    expect(previewText({ kind: "command", command: "ls", workingFolder: ".", background: true })).toBe("$ ls\n(in the step's folder, as a background job)");
  });

  it("names the folder a write's path is relative to, and says 'no change' for identical content", () => {
    const unchanged = previewText({ kind: "file-change", path: "reports/summary.md", root: "/srv/team-a", change: "modify", added: 0, removed: 0, rows: [] });
    expect(unchanged).toBe("reports/summary.md: no change\n(in /srv/team-a)");
    const replaced = previewText({ kind: "file-replace", path: "logo.png", root: "/srv/team-a", reason: "binary", beforeBytes: null, afterBytes: 10, beforeLines: null, afterLines: null });
    expect(replaced).toBe("Replace logo.png (a binary file): a new file before, 10 bytes after.\n(in /srv/team-a)");
  });
});
