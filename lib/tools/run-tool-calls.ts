import type { RunOptions, Tool } from "./tool";
import type { ToolContext } from "./tool-context";
import type { ToolResult } from "./tool-result";

/** One call in a batch: the tool, the model's arguments, and the context it runs in. */
export interface ToolCallRequest {
  tool: Tool;
  args: unknown;
  ctx: ToolContext;
  options?: RunOptions;
}

/**
 * Runs a turn's calls with results in call order: consecutive
 * concurrency-safe calls run in parallel; any other call waits for what came
 * before and runs alone, so two writes never race and a write never races a read.
 */
export async function runToolCalls(calls: readonly ToolCallRequest[]): Promise<ToolResult[]> {
  const results: ToolResult[] = new Array(calls.length);
  let parallel: number[] = [];
  const flush = async (): Promise<void> => {
    const indices = parallel;
    parallel = [];
    await Promise.all(
      indices.map(async (index) => {
        const call = calls[index]!;
        results[index] = await call.tool.run(call.args, call.ctx, call.options);
      }),
    );
  };
  for (const [index, call] of calls.entries()) {
    if (isSafeToOverlap(call)) {
      parallel.push(index);
      continue;
    }
    await flush();
    results[index] = await call.tool.run(call.args, call.ctx, call.options);
  }
  await flush();
  return results;
}

function isSafeToOverlap(call: ToolCallRequest): boolean {
  // Judged on the raw arguments: a call whose arguments do not parse is refused
  // before it does anything, so treating it by its declared operation is safe.
  try {
    return call.tool.isConcurrencySafe(call.args as never);
  } catch {
    return false;
  }
}
