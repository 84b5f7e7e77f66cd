import { createRequire } from "node:module";
import path from "node:path";
import type * as QuickjsCore from "quickjs-emscripten-core";
import type { QuickJSContext, QuickJSHandle, QuickJSSyncVariant, QuickJSWASMModule } from "quickjs-emscripten-core";
import { authorPosition, CODE_FILE_NAME, wrapCode } from "./code-wrapper";
import type { SandboxSyntaxProblem } from "./types";

/**
 * The syntax check of a workflow's Code node, on every validation: QuickJS compiles the code in the studio's own
 * process (compileOnly: bytecode is made, nothing of it runs), so the answer is the sandbox's own parser's, quickly
 * (a fresh runtime and context take ~0.2 ms). Async only because loading QuickJS's WebAssembly is, once per process.
 *
 * QuickJS is required from the working directory at run time, as the workers do (worker-command.ts): the Next
 * build bundles server code, and the WebAssembly file is found next to the package's own script.
 *
 * QuickJS's parser recurses on the native stack further than its own stack limit sees; deeply nested code can
 * overflow V8's stack inside the WebAssembly. That RangeError is caught and reported, and the QuickJS instance,
 * whose state it cut short, is replaced by a fresh one on the next check.
 */

const CHECK_MEMORY_BYTES = 64 * 1024 * 1024;
const CHECK_STACK_BYTES = 256 * 1024;
const CHECK_TIME_MS = 2_000;

let loading: Promise<QuickJSWASMModule> | null = null;

function loadQuickjs(): Promise<QuickJSWASMModule> {
  loading ??= (async () => {
    const requireFromRoot = createRequire(path.join(process.cwd(), "package.json"));
    const core = requireFromRoot("quickjs-emscripten-core") as typeof QuickjsCore;
    const variantExports = requireFromRoot("@jitl/quickjs-wasmfile-release-sync") as { default?: QuickJSSyncVariant } & QuickJSSyncVariant;
    return core.newQuickJSWASMModuleFromVariant(variantExports.default ?? variantExports);
  })();
  // A failed load is tried again next time rather than remembered.
  loading.catch(() => (loading = null));
  return loading;
}

/**
 * The first syntax error in `code` (a function body, as the sandbox runs it), located in the author's text; null
 * when it compiles. `parameterNames` are the scope's keys, when known: `let inputs = 1` is an error only when
 * `inputs` is a parameter.
 */
export async function checkJavaScriptSyntax(code: string, parameterNames: readonly string[] = []): Promise<SandboxSyntaxProblem | null> {
  const quickjs = await loadQuickjs();
  const wrapped = wrapCode(code, parameterNames);
  const runtime = quickjs.newRuntime();
  let intact = true;
  try {
    runtime.setMemoryLimit(CHECK_MEMORY_BYTES);
    runtime.setMaxStackSize(CHECK_STACK_BYTES);
    const deadline = Date.now() + CHECK_TIME_MS;
    runtime.setInterruptHandler(() => Date.now() > deadline);
    const context = runtime.newContext();
    try {
      const compiled = context.evalCode(wrapped.source, CODE_FILE_NAME, { type: "global", compileOnly: true });
      if (!compiled.error) {
        compiled.value.dispose();
        return null;
      }
      const problem = problemOf(context, compiled.error);
      compiled.error.dispose();
      const position = authorPosition(code, wrapped, problem.line, problem.column);
      return { message: problem.message, ...position };
    } finally {
      context.dispose();
    }
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    intact = false;
    loading = null;
    return { message: "the code is nested too deeply to compile", line: 1, column: 1 };
  } finally {
    if (intact) runtime.dispose();
  }
}

/** The parser's error: a SyntaxError it made itself (no code of the author's ran, so reading it runs nothing). */
function problemOf(context: QuickJSContext, error: QuickJSHandle): { message: string; line: number; column: number } {
  const text = (key: string): string => {
    const handle = context.getProp(error, key);
    const value = context.typeof(handle) === "string" ? context.getString(handle) : "";
    handle.dispose();
    return value;
  };
  const name = text("name");
  const message = text("message");
  if (name === "InternalError" && message === "stack overflow") return { message: "the code is nested too deeply to compile", line: 1, column: 1 };
  const found = new RegExp(`at ${CODE_FILE_NAME}:(\\d+):(\\d+)`).exec(text("stack"));
  return { message: `${name || "SyntaxError"}: ${message || "the code is not valid JavaScript"}`, line: found ? Number(found[1]) : 1, column: found ? Number(found[2]) : 1 };
}
