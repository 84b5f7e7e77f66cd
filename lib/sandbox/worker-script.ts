import { CODE_FILE_NAME } from "./code-wrapper";
import { GUEST_HARNESS } from "./guest-harness";

/**
 * The program of a sandbox worker process (passed with `node -e`, see worker-command.ts): it loads QuickJS
 * (WebAssembly) once, says `ready`, then runs one job per IPC message, each in a fresh QuickJS runtime and context
 * (about 0.2 ms, measured: cheaper than resetting one, and no global of one job can be seen by the next).
 *
 * Passed as text, as sqlite-process.ts does, so no file path has to survive the Next build. The two QuickJS
 * packages come as absolute folders in argv (resolved by the studio), the only files this process may read.
 *
 * Per job: memory and stack limits on the runtime and a deadline interrupt handler (QuickJS calls it every few
 * thousand operations; the interrupt it raises cannot be caught by the code). The guest harness (guest-harness.ts)
 * calls the author's function and writes the results as JSON text inside the VM; this process reads that one string,
 * after checking its length, and passes the JSON texts on unparsed: the studio parses them once.
 *
 * Replies `{ id, ok: true, items: [{ ok, json | error, ms }] }` or `{ id, ok: false, error }`, where an error is
 * `{ kind, text?, thrownValue?, line?, column? }` with QuickJS's own positions (the studio maps them to the author's
 * code and words the message), and `retire: true` when this process must not be reused: after running out of
 * memory (its WebAssembly memory has grown for good and QuickJS's out-of-memory paths are its least trodden), and
 * after an exception of Node's own out of the WebAssembly (V8's stack overflow on a deeply nested source or
 * JSON.stringify, paths whose native frames QuickJS's stack limit does not count): QuickJS's state is then left
 * half-way, so nothing more may run in it. The studio kills a retired worker and starts another when needed.
 */
export const WORKER_SCRIPT = String.raw`
"use strict";
const [coreFolder, variantFolder] = process.argv.slice(1);
const core = require(coreFolder);
const variantExports = require(variantFolder);
const variant = variantExports.default || variantExports;
const HARNESS = ${JSON.stringify(GUEST_HARNESS)};
/** What a description header may add to the results' JSON, per item: two bounded texts and small fields. */
const HEADER_PER_ITEM = 4500;
let quickjs = null;

function isSandboxOutOfMemory(description) {
  return description.isObject && description.name === "InternalError" && description.message === "out of memory";
}

/** A thrown value (described by the harness) as an error record, the limits first: they are what ended the code. */
function errorOf(description, interrupted, phase) {
  if (interrupted) return { kind: "time-limit" };
  if (isSandboxOutOfMemory(description)) return { kind: "memory-limit" };
  if (description.isObject && description.name === "InternalError" && description.message === "stack overflow") return { kind: "stack-limit" };
  const located = description.line === null ? {} : { line: description.line, column: description.column };
  if (phase === "compile" && description.name === "SyntaxError") return { kind: "syntax", text: description.message || "syntax error", ...located };
  if (!description.isObject) return { kind: "exception", text: description.message === null ? "a value that cannot be shown" : description.message, thrownValue: true };
  const text = description.name && description.message !== null ? description.name + ": " + description.message : description.message || description.name || "an error without a message";
  return { kind: "exception", text, ...located };
}

/** A string handle's text, or null when longer than maxLength characters (never copied out then). */
function boundedString(context, handle, maxLength) {
  if (context.typeof(handle) !== "string") return null;
  const lengthHandle = context.getProp(handle, "length");
  const length = context.getNumber(lengthHandle);
  lengthHandle.dispose();
  return length <= maxLength ? context.getString(handle) : null;
}

class Job {
  constructor(request) {
    this.request = request;
    this.limits = request.limits;
    this.interrupted = false;
    this.retire = false;
    this.runtime = null;
    this.context = null;
    this.handles = [];
  }

  keep(handle) {
    this.handles.push(handle);
    return handle;
  }

  /** Describes an exception handle with the harness (inside the VM), or a bare record if even that fails. */
  describe(errorHandle) {
    const fallback = { isObject: false, name: null, message: null, line: null, column: null };
    if (!this.describeFunction) return fallback;
    // The error may be QuickJS running out of memory: describing it needs a little.
    this.runtime.setMemoryLimit(this.limits.memoryBytes + 1024 * 1024);
    const result = this.context.callFunction(this.describeFunction, this.context.undefined, errorHandle);
    this.runtime.setMemoryLimit(this.limits.memoryBytes);
    if (result.error) {
      result.error.dispose();
      return fallback;
    }
    const text = boundedString(this.context, result.value, 20000);
    result.value.dispose();
    try {
      return text === null ? fallback : JSON.parse(text);
    } catch {
      return fallback;
    }
  }

  /** An error record for an exception handle, which it disposes. */
  failure(errorHandle, phase) {
    const description = this.describe(errorHandle);
    errorHandle.dispose();
    const error = errorOf(description, this.interrupted, phase);
    if (error.kind === "memory-limit") this.retire = true;
    return error;
  }

  run() {
    const limits = this.limits;
    this.runtime = quickjs.newRuntime();
    const deadline = Date.now() + limits.timeMs;
    this.runtime.setInterruptHandler(() => {
      if (Date.now() < deadline) return false;
      this.interrupted = true;
      return true;
    });
    this.runtime.setMemoryLimit(limits.memoryBytes);
    this.runtime.setMaxStackSize(limits.stackBytes);
    this.context = this.runtime.newContext();
    const context = this.context;

    const harnessResult = context.evalCode(HARNESS, "harness", { type: "global", strict: true });
    if (harnessResult.error) return { ok: false, error: this.failure(harnessResult.error, "setup") };
    const harness = this.keep(harnessResult.value);
    const start = this.keep(context.getProp(harness, "start"));
    const collect = this.keep(context.getProp(harness, "collect"));
    this.describeFunction = this.keep(context.getProp(harness, "describe"));

    const compiled = context.evalCode(this.request.source, ${JSON.stringify(CODE_FILE_NAME)}, { type: "global" });
    if (compiled.error) return { ok: false, error: this.failure(compiled.error, "compile") };
    const userFunction = this.keep(compiled.value);
    if (context.typeof(userFunction) !== "function") return { ok: false, error: { kind: "syntax", text: "the code must be the body of a function" } };

    const argumentsHandle = this.keep(context.newString(this.request.argumentsJson));
    const itemsHandle = this.request.itemsJson === null ? context.null : this.keep(context.newString(this.request.itemsJson));
    const started = context.callFunction(start, context.undefined, userFunction, argumentsHandle, itemsHandle);
    if (started.error) return { ok: false, error: this.failure(started.error, "run") };
    started.value.dispose();

    // Awaits the returned promises: runs QuickJS's job queue until it is empty, under the same deadline. A job
    // fails only with what the code cannot catch (the interrupt); anything else goes on to the next job.
    for (;;) {
      const jobs = this.runtime.executePendingJobs(-1);
      if (!jobs.error) {
        jobs.dispose();
        break;
      }
      jobs.error.dispose();
      if (this.interrupted) break;
    }
    // Once the deadline's interrupt fired, the code's time is up, whatever became of it: an interrupted promise job
    // may leave a promise merely pending rather than report the interrupt.
    if (this.interrupted) return { ok: false, error: { kind: "time-limit" } };

    // Turning results into JSON needs memory beyond what the code used: the JSON text itself (up to two bytes a
    // character) and the copy a growing buffer makes. The code's own toJSON and getters run with that allowance.
    this.runtime.setMemoryLimit(limits.memoryBytes + 5 * limits.outputBytes + 1024 * 1024);
    const budget = this.keep(context.newNumber(limits.outputBytes));
    const collected = context.callFunction(collect, context.undefined, budget);
    if (collected.error) return { ok: false, error: this.failure(collected.error, "output") };
    if (this.interrupted) return { ok: false, error: { kind: "time-limit" } };
    const resultHandle = this.keep(collected.value);
    // No guest code runs from here on: reading a string primitive calls nothing. Unlimited, so that copying the
    // text out (QuickJS allocates the UTF-8 copy) cannot fail.
    this.runtime.setMemoryLimit(-1);
    const itemCount = this.request.itemsJson === null ? 1 : this.request.itemCount;
    const text = boundedString(context, resultHandle, limits.outputBytes + itemCount * HEADER_PER_ITEM + 4096);
    if (text === null) return { ok: false, error: { kind: "output-limit" } };
    return this.read(text, itemCount);
  }

  /** The harness's header and JSON lines as the reply's items, each JSON text's UTF-8 size checked. */
  read(text, itemCount) {
    const newline = text.indexOf("\n");
    const header = JSON.parse(newline === -1 ? text : text.slice(0, newline));
    if (header.whole === "output-limit") return { ok: false, error: { kind: "output-limit" } };
    if (!Array.isArray(header.items) || header.items.length !== itemCount) throw new Error("the sandbox harness gave a malformed header");
    const bodies = newline === -1 ? [] : text.slice(newline + 1).split("\n");
    let nextBody = 0;
    let totalBytes = 0;
    const items = header.items.map((entry) => {
      const ms = typeof entry.ms === "number" ? entry.ms : 0;
      switch (entry.state) {
        case "ok": {
          const json = bodies[nextBody++];
          if (typeof json !== "string") throw new Error("the sandbox harness gave fewer results than it announced");
          const bytes = Buffer.byteLength(json, "utf8");
          totalBytes += bytes;
          if (bytes > this.limits.outputBytes) return { ok: false, error: { kind: "output-limit" }, ms };
          return { ok: true, json, ms };
        }
        case "thrown": {
          const error = errorOf(entry.thrown, this.interrupted, "run");
          if (error.kind === "memory-limit") this.retire = true;
          return { ok: false, error, ms };
        }
        case "not-json":
          return { ok: false, error: { kind: "not-json", text: String(entry.reason) }, ms };
        case "pending":
          return { ok: false, error: { kind: "not-json", text: "pending" }, ms };
        case "output-limit":
          return { ok: false, error: { kind: "output-limit" }, ms };
        default:
          throw new Error("the sandbox harness gave an unknown state");
      }
    });
    if (totalBytes > this.limits.outputBytes) return { ok: false, error: { kind: "output-limit" } };
    return { ok: true, items };
  }

  dispose() {
    for (const handle of this.handles) if (handle.alive) handle.dispose();
    if (this.context) this.context.dispose();
    if (this.runtime) this.runtime.dispose();
  }
}

function runRequest(request) {
  const job = new Job(request);
  let reply;
  try {
    reply = job.run();
  } catch (error) {
    // Node's own exception out of the WebAssembly (see above): this process is done after replying.
    job.retire = true;
    reply =
      error instanceof RangeError
        ? { ok: false, error: { kind: "stack-limit" } }
        : { ok: false, error: { kind: "worker-crashed", text: String((error && error.message) || error).slice(0, 2000) } };
  }
  return { job, reply: { type: "result", id: request.id, retire: job.retire, ...reply } };
}

process.on("message", (request) => {
  const { job, reply } = runRequest(request);
  process.send(reply);
  // After the reply, off the caller's time (freeing 10,000 parsed rows takes ~7 ms), before the next message is
  // read. A retired worker is killed instead; if freeing fails, QuickJS is in doubt, so this process ends.
  if (job.retire) return;
  try {
    job.dispose();
  } catch {
    process.exit(1);
  }
});
// The studio went away (or closed the pool): nothing to keep.
process.on("disconnect", () => process.exit(0));

core.newQuickJSWASMModuleFromVariant(variant).then(
  (loaded) => {
    quickjs = loaded;
    process.send({ type: "ready" });
  },
  (error) => {
    process.stderr.write("could not load QuickJS: " + String((error && error.stack) || error) + "\n");
    process.exit(1);
  },
);
`;
