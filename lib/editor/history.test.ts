import { describe, expect, it } from "vitest";
import { canRedo, canUndo, commitChange, createHistory, previewChange, redo, settleChange, undo } from "./history";

describe("history", () => {
  it("undoes and redoes committed steps", () => {
    let history = createHistory("a");
    history = commitChange(history, "b");
    history = commitChange(history, "c");
    expect(canUndo(history)).toBe(true);
    history = undo(history);
    expect(history.present).toBe("b");
    history = undo(history);
    expect(history.present).toBe("a");
    expect(canUndo(history)).toBe(false);
    history = undo(history);
    expect(history.present).toBe("a");
    history = redo(history);
    history = redo(history);
    expect(history.present).toBe("c");
    expect(canRedo(history)).toBe(false);
  });

  it("drops the redo branch on a new change", () => {
    let history = commitChange(commitChange(createHistory("a"), "b"), "c");
    history = undo(history);
    history = commitChange(history, "d");
    expect(canRedo(history)).toBe(false);
    expect(undo(history).present).toBe("b");
  });

  it("records a previewed gesture as one step from where it started", () => {
    let history = commitChange(createHistory("a"), "b");
    for (const frame of ["b1", "b2", "b3"]) history = previewChange(history, frame);
    expect(history.present).toBe("b3");
    expect(history.past).toEqual(["a"]);
    history = settleChange(history);
    expect(history.past).toEqual(["a", "b"]);
    expect(undo(history).present).toBe("b");
  });

  it("undo during a gesture settles it first, then steps back over it", () => {
    let history = previewChange(createHistory("a"), "a1");
    expect(canUndo(history)).toBe(true);
    history = undo(history);
    expect(history.present).toBe("a");
    expect(redo(history).present).toBe("a1");
  });

  it("a gesture that changed nothing records nothing", () => {
    const start = createHistory("a");
    const settled = settleChange(previewChange(start, "a"));
    expect(settled.past).toEqual([]);
  });

  it("merges consecutive commits with the same key within the window", () => {
    let history = createHistory("");
    history = commitChange(history, "N", { mergeKey: "name", now: 0 });
    history = commitChange(history, "Na", { mergeKey: "name", now: 300 });
    history = commitChange(history, "Nam", { mergeKey: "name", now: 600 });
    expect(history.past).toEqual([""]);
    history = commitChange(history, "Name", { mergeKey: "name", now: 5000 });
    expect(history.past).toEqual(["", "Nam"]);
    history = commitChange(history, "Name!", { mergeKey: "other", now: 5100 });
    expect(history.past).toEqual(["", "Nam", "Name"]);
  });

  it("keeps at most `limit` steps", () => {
    let history = createHistory(0);
    for (let value = 1; value <= 10; value += 1) history = commitChange(history, value, { limit: 3 });
    expect(history.past).toEqual([7, 8, 9]);
  });

  it("ignores a commit of the present itself", () => {
    const history = createHistory("a");
    expect(commitChange(history, "a")).toBe(history);
  });
});
