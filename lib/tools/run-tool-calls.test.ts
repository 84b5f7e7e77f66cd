import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AutoApproveIOHandler, createToolContext, runToolCalls, Tool, ToolResult } from "@/lib/tools";

/** Records when each call starts and ends, to observe overlap. */
class SlowTool extends Tool<{ label: string }> {
  description = "Waits a little.";
  inputModel = z.object({ label: z.string() });
  constructor(
    readonly name: string,
    readonly title: string,
    private readonly safe: boolean,
    private readonly timeline: string[],
  ) {
    super();
  }
  override isReadOnly(): boolean {
    return this.safe;
  }
  override async call(args: { label: string }): Promise<ToolResult> {
    this.timeline.push(`start ${args.label}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    this.timeline.push(`end ${args.label}`);
    return ToolResult.ok(args.label);
  }
}

describe("runToolCalls", () => {
  it("overlaps consecutive safe calls and runs unsafe ones alone, results in call order", async () => {
    const timeline: string[] = [];
    const reader = new SlowTool("reader", "Reader", true, timeline);
    const writer = new SlowTool("writer", "Writer", false, timeline);
    const ctx = createToolContext({ io: new AutoApproveIOHandler(), permissions: { mode: "bypass" } });
    const results = await runToolCalls([
      { tool: reader, args: { label: "r1" }, ctx },
      { tool: reader, args: { label: "r2" }, ctx },
      { tool: writer, args: { label: "w1" }, ctx },
      { tool: writer, args: { label: "w2" }, ctx },
      { tool: reader, args: { label: "r3" }, ctx },
    ]);
    expect(results.map((result) => result.content)).toEqual(["r1", "r2", "w1", "w2", "r3"]);
    expect(timeline).toEqual(["start r1", "start r2", "end r1", "end r2", "start w1", "end w1", "start w2", "end w2", "start r3", "end r3"]);
  });
});
