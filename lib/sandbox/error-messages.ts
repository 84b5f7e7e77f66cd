import { authorPosition, type WrappedCode } from "./code-wrapper";
import type { WorkerEnd, WorkerErrorRecord } from "./sandbox-worker";
import { describeLimit, type SandboxError, type SandboxLimits } from "./types";

/**
 * The worker reports what went wrong in a few words (a kind, QuickJS's text, QuickJS's position); the sentences a
 * person reads are made here, with the limit that was hit and its value, and positions in the author's own code.
 */
export function sandboxErrorOf(record: WorkerErrorRecord, limits: SandboxLimits, code: string, wrapped: WrappedCode): SandboxError {
  const position = record.line === undefined || record.column === undefined ? {} : authorPosition(code, wrapped, record.line, record.column);
  switch (record.kind) {
    case "syntax":
      return { kind: "syntax", message: `SyntaxError: ${record.text ?? "the code is not valid JavaScript"}`, ...position };
    case "exception":
      return { kind: "exception", message: record.thrownValue ? `the code threw a value that is not an Error: ${record.text ?? ""}` : (record.text ?? "the code threw an error"), ...position };
    case "time-limit":
      return timeLimitError(limits);
    case "memory-limit":
      return { kind: "memory-limit", message: `the code ran out of its memory limit of ${describeLimit("memoryBytes", limits.memoryBytes)}` };
    case "stack-limit":
      return {
        kind: "stack-limit",
        message: `the code went deeper than its stack limit of ${describeLimit("stackBytes", limits.stackBytes)} (a recursion that does not end, or code or data nested too deeply)`,
      };
    case "output-limit":
      return { kind: "output-limit", message: `the result is larger than the output limit of ${describeLimit("outputBytes", limits.outputBytes)} as JSON` };
    case "not-json":
      return { kind: "not-json", message: notJsonMessage(record.text ?? "") };
    case "worker-crashed":
      return { kind: "worker-crashed", message: `the sandbox worker failed while running the code: ${record.text ?? "unknown error"}` };
  }
}

function notJsonMessage(reason: string): string {
  if (reason === "undefined") return "the code returned undefined: it must return a JSON value, e.g. `return { total };` (a body without `return` returns undefined)";
  if (reason === "pending") return "the code returned a Promise that never settled, so there is no value to return";
  if (reason.startsWith("a value of type ")) return `the code returned ${reason}, which is not JSON: it must return null, a boolean, number, string, list or object`;
  return `the code's result ${reason}`;
}

export function timeLimitError(limits: SandboxLimits, killed = false): SandboxError {
  const message = `the code ran past its time limit of ${describeLimit("timeMs", limits.timeMs)}`;
  return { kind: "time-limit", message: killed ? `${message} and did not stop, so its worker process was killed` : message };
}

/** A job whose worker ended under it. */
export function workerEndError(end: WorkerEnd, limits: SandboxLimits, cancelled: boolean): SandboxError {
  if (cancelled) return cancelledError(true);
  if (end.ended === "timed-out") return timeLimitError(limits, true);
  return { kind: "worker-crashed", message: `the sandbox worker process ended while running the code (${end.detail}); another takes its place` };
}

export function cancelledError(started: boolean): SandboxError {
  return { kind: "cancelled", message: started ? "the code was cancelled while it ran" : "the code was cancelled before it started" };
}
