import { describe, expect, it } from "vitest";
import { exportFileName, sortByUpdated, toListItem } from "./workflow-list-item";

describe("toListItem", () => {
  const summary = { id: "w1", name: "Triage", description: "", latestVersion: 3, lastRunStatus: "succeeded" };

  it("turns the server's Dates into ISO strings", () => {
    const item = toListItem({ ...summary, updatedAt: new Date("2026-02-01T10:00:00.000Z") });
    expect(item.updatedAt).toBe("2026-02-01T10:00:00.000Z");
    expect(item.lastRunStatus).toBe("succeeded");
  });

  it("keeps the API's strings, and treats an unknown status as never run", () => {
    const item = toListItem({ ...summary, updatedAt: "2026-02-01T10:00:00.000Z", lastRunStatus: "exploded" });
    expect(item.updatedAt).toBe("2026-02-01T10:00:00.000Z");
    expect(item.lastRunStatus).toBeNull();
  });
});

describe("sortByUpdated", () => {
  it("puts the most recently changed first", () => {
    const older = toListItem({ id: "a", name: "A", description: "", latestVersion: 1, updatedAt: "2026-01-01T00:00:00.000Z" });
    const newer = toListItem({ id: "b", name: "B", description: "", latestVersion: 1, updatedAt: "2026-03-01T00:00:00.000Z" });
    expect(sortByUpdated([older, newer]).map((item) => item.id)).toEqual(["b", "a"]);
  });
});

describe("exportFileName", () => {
  it("is the name with .json", () => {
    expect(exportFileName("Nightly report")).toBe("Nightly report.json");
  });

  it("replaces characters a file system refuses", () => {
    expect(exportFileName("Reports / nightly: v2?")).toBe("Reports - nightly - v2.json");
    expect(exportFileName("tab\there")).toBe("tabhere.json");
  });

  it("never produces a hidden or empty file name", () => {
    expect(exportFileName("..")).toBe("workflow.json");
    expect(exportFileName("///")).toBe("workflow.json");
    expect(exportFileName(".env")).toBe("env.json");
  });
});
