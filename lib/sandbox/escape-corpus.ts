import type { SandboxErrorKind } from "./types";

/**
 * Sandbox escape attempts, as data, so that every test of code running in the sandbox (this module's, the
 * run_javascript tool's) can run them all. Each is a function body, run with the scope
 * `{ inputs: { port, markerPath, databasePath, secretName } }`: a loopback port the test listens on, a file whose
 * content must stay unread and unchanged, the studio's database file, and the name of an environment variable
 * planted in the test process. A payload that believes it got through returns text starting with ESCAPED; the tests
 * assert that no outcome contains it, nor the secret, nor the marker's content, and that nothing connected.
 *
 * `expected`: the outcomes allowed (a limit or error kind, or "value" for a harmless JSON result). Most attempts end
 * in an exception naming what is missing (`process is not defined`); those that only probe return a value.
 */
export interface EscapePayload {
  name: string;
  /** Where the technique comes from. */
  source: string;
  code: string;
  expected: readonly (SandboxErrorKind | "value")[];
}

const HOST_REACH = "[typeof process, typeof require, typeof module, typeof Buffer, typeof std, typeof os].join()";
const NOTHING_REACHED = "undefined,undefined,undefined,undefined,undefined,undefined";

/** The code of "Function through the prototypes of every built-in": a walk too long for its row. */
const PROTOTYPE_WALK = `const found = [];
for (const name of Object.getOwnPropertyNames(globalThis)) {
  let value;
  try { value = globalThis[name]; } catch (e) { continue; }
  for (const start of [value, value && value.prototype]) {
    let object = start;
    for (let depth = 0; object && depth < 6; depth += 1) {
      try {
        const MaybeFunction = object.constructor && object.constructor.constructor;
        if (typeof MaybeFunction === 'function') {
          const reached = MaybeFunction('return ${HOST_REACH}')();
          if (reached !== '${NOTHING_REACHED}') found.push(name + ': ' + reached);
        }
        object = Object.getPrototypeOf(object);
      } catch (e) { break; }
    }
  }
}
return found.length ? 'ESCAPED ' + found.join('; ') : 'clean';`;

/** One row of the table: the attempt's name, where the technique comes from, the outcomes allowed, its code. */
function attempt(name: string, source: string, expected: EscapePayload["expected"], code: string): EscapePayload {
  return { name, source, code, expected };
}

export const ESCAPE_CORPUS: readonly EscapePayload[] = [
  // Constructor chains: reaching Function and asking it for the host's globals.
  attempt("this.constructor.constructor('return process')()", "n8n CVE-2025-68613", ["exception"],
    "return this.constructor.constructor('return process')().mainModule.require('child_process').execSync('id').toString()"),
  attempt("arrow function constructor", "n8n CVE-2025-68613", ["exception"], "return (() => {}).constructor('return process.env')()[inputs.secretName]"),
  attempt("[].map.constructor", "vm2 GHSA-ch3r-j5x3-6q2m", ["exception"], "return [].map.constructor('return require')()('fs').readFileSync(inputs.markerPath, 'utf8')"),
  attempt("async function constructor", "vm2 CVE-2026-22709", ["exception"],
    "const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor;\nreturn await AsyncFunction('return process.env')()"),
  attempt("generator function constructor", "vm2 GHSA-whpj-8f3w-67p5", ["exception"],
    "const GeneratorFunction = Object.getPrototypeOf(function* () {}).constructor;\nreturn GeneratorFunction('yield process.env')().next().value"),
  attempt("async generator function constructor", "vm2 GHSA-whpj-8f3w-67p5", ["exception"],
    "const AsyncGeneratorFunction = Object.getPrototypeOf(async function* () {}).constructor;\nreturn (await AsyncGeneratorFunction('yield require(\"fs\")')().next()).value"),
  attempt("tagged template calls Function", "n8n CVE-2025-68613", ["exception"], "return Function`return process`()"),
  attempt("template literal evaluates a constructor chain", "n8n CVE-2025-68613", ["exception"], "return `${this.constructor.constructor('return process.env')()}`"),
  attempt("Function through the prototypes of every built-in", "n8n CVE-2025-68613", ["value"], PROTOTYPE_WALK),
  attempt("host names on the global object", "Langflow CVE-2025-3248", ["value"],
    "const host = ['process', 'require', 'module', 'exports', 'Buffer', 'global', 'fetch', 'XMLHttpRequest', 'WebSocket', 'setTimeout', 'setInterval', 'queueMicrotask', 'std', 'os', 'Deno', 'Bun', 'WebAssembly', 'Atomics', 'Worker', 'console', 'print', 'scriptArgs', '__loadScript'];\nconst present = host.filter((name) => name in globalThis);\nreturn present.length ? 'ESCAPED ' + present.join(',') : 'clean';"),
  // Promises, thenables, async generators.
  attempt("a returned thenable whose then reaches for the host", "vm2 CVE-2026-22709", ["exception"], "return { then(resolve) { resolve(this.constructor.constructor('return process')().env) } }"),
  attempt("a Promise subclass with Symbol.species", "vm2 GHSA-cchq-frgv-rjh5", ["value", "exception", "not-json"],
    "class Sneaky extends Promise { static get [Symbol.species]() { return function (executor) { executor((value) => value, (error) => error); return { then() { return process; } }; }; } }\nreturn Sneaky.resolve(1).then((x) => x)"),
  attempt("Promise.prototype.then replaced to catch the harness's callbacks", "vm2 CVE-2026-22709", ["value", "exception"],
    "Promise.prototype.then = function (fulfilled) { return fulfilled.constructor('return process')(); };\nreturn Promise.resolve('safe')"),
  attempt("an async generator delegating to a hostile async iterator", "vm2 GHSA-whpj-8f3w-67p5", ["exception"],
    "async function* outer() { yield* { [Symbol.asyncIterator]() { return { next() { return process.env; } }; } }; }\nreturn (await outer().next()).value"),
  attempt("an endless await chain", "vm2 GHSA-whpj-8f3w-67p5", ["time-limit"], "async function spin() { for (;;) await null; }\nreturn spin()"),
  // Stack traces and thrown values.
  attempt("Error.prepareStackTrace to reach call-site objects", "vm2 CVE-2023-29017", ["value", "exception"],
    "Error.prepareStackTrace = (error, frames) => frames.map((frame) => frame.getThis && frame.getThis()).map((self) => self && self.constructor.constructor('return process')());\nreturn String(new Error('x').stack)"),
  attempt("a stack getter that reaches for the host", "vm2 CVE-2023-30547", ["exception"],
    "const error = new Error('look');\nObject.defineProperty(error, 'stack', { get() { return process.mainModule; } });\nthrow error;"),
  attempt("a thrown object whose toString reaches for the host", "vm2 CVE-2023-30547", ["exception"], "throw { toString() { return require('fs').readFileSync(inputs.markerPath, 'utf8'); } }"),
  attempt("err.stack and arguments.callee.caller (frame walks)", "Python sandbox exception-frame walk (tb_frame.f_back.f_globals), translated", ["value", "exception"],
    "try { null.x; } catch (error) { const caller = (function () { return arguments.callee.caller; })(); return [String(error.stack).includes('harness') ? 'harness visible' : 'code only', typeof caller]; }"),
  attempt("Function.prototype.caller", "Python sandbox exception-frame walk (tb_frame.f_back.f_globals), translated", ["exception", "value", "not-json"],
    "function inner() { return inner.caller && inner.caller.constructor('return process')(); }\nreturn inner()"),
  attempt("property walks over an error object", "Python format-string attribute walk ('{0.__class__.__init__.__globals__}'), translated", ["value"],
    "const error = new TypeError('x');\nconst global = error.constructor.constructor('return this')();\nconst reached = Object.getOwnPropertyNames(global).filter((name) => ['process', 'require', 'Buffer', 'std', 'os'].includes(name));\nreturn reached.length ? 'ESCAPED ' + reached : 'clean';"),
  // What the result is made of: the host reads JSON text only.
  attempt("Symbol.species on a returned array", "vm2 GHSA-cchq-frgv-rjh5", ["value"], "const list = [1, 2];\nlist.constructor = { [Symbol.species]: function () { return process; } };\nreturn list"),
  attempt("Symbol.toPrimitive on a returned value", "vm2 CVE-2022-36067", ["value"], "return { [Symbol.toPrimitive]() { return process.env; }, toString() { return process.env; } }"),
  attempt("util.inspect.custom on a returned value", "vm2 CVE-2022-36067", ["value"], "return { [Symbol.for('nodejs.util.inspect.custom')]() { return process.env; }, plain: 1 }"),
  // Awaiting the async function's result reads `then` through the get trap first.
  attempt("a Proxy returned", "vm2 CVE-2023-32314", ["exception", "not-json"],
    "return new Proxy({}, { get() { return process.env; }, ownKeys() { return ['a']; }, getOwnPropertyDescriptor() { return { value: 1, enumerable: true, configurable: true }; } })"),
  attempt("a toJSON that throws", "vm2 CVE-2023-32314", ["not-json"], "return { toJSON() { throw new Error(String(process.env)); } }"),
  attempt("a toJSON that loops", "vm2 CVE-2023-32314", ["time-limit"], "return { toJSON() { for (;;) {} } }"),
  attempt("__proto__ and constructor.prototype in the values coming out", "n8n CVE-2025-68613", ["value"],
    "const parsed = JSON.parse('{\"__proto__\": {\"polluted\": \"yes\"}, \"constructor\": {\"prototype\": {\"polluted\": \"yes\"}}}');\nreturn [parsed, { ['__proto__']: { polluted: 'yes' } }, { constructor: { prototype: { polluted: 'yes' } } }]"),
  attempt("the guest's own prototypes polluted", "n8n CVE-2025-68613", ["value"],
    "Object.prototype.polluted = 'yes';\nArray.prototype.polluted = 'yes';\nObject.prototype.toJSON = function () { return 'every object replaced'; };\nreturn { a: 1 }"),
  // Modules, eval and what the engine leaves out.
  attempt("import('fs')", "Langflow CVE-2025-3248", ["exception"], "const fs = await import('fs');\nreturn fs.readFileSync(inputs.markerPath, 'utf8')"),
  attempt("import('node:child_process')", "Langflow CVE-2025-3248", ["exception"],
    "const childProcess = await import('node:child_process');\nreturn childProcess.execSync('cat ' + inputs.databasePath).toString()"),
  attempt("import of QuickJS's own std module", "QuickJS qjs std/os modules", ["exception"], "const std = await import('std');\nreturn std.loadFile(inputs.markerPath)"),
  attempt("eval of host names", "Langflow CVE-2025-3248", ["exception"], "return eval('process.env')[inputs.secretName]"),
  attempt("indirect eval", "Langflow CVE-2025-3248", ["exception"], "return (0, eval)('require')('fs').readFileSync(inputs.databasePath)"),
  attempt("new Function", "Langflow CVE-2025-3248", ["exception"], "return new Function('return process.env')()[inputs.secretName]"),
  attempt("WebAssembly", "vm2 GHSA-ch3r-j5x3-6q2m", ["exception"], "return WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]))"),
  attempt("SharedArrayBuffer (harmless: one thread)", "Spectre-style timers", ["value"], "const shared = new SharedArrayBuffer(8);\nreturn shared.byteLength"),
  attempt("Atomics.wait", "Spectre-style timers", ["exception"], "return Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10)"),
  attempt("globalThis.std and os", "QuickJS qjs std/os modules", ["exception"], "return globalThis.std.open(inputs.markerPath, 'w')"),
  attempt("os.exec", "QuickJS qjs std/os modules", ["exception"], "return os.exec(['cat', inputs.markerPath])"),
  attempt("require", "Langflow CVE-2025-3248", ["exception"], "return require('fs').readFileSync(inputs.markerPath, 'utf8')"),
  attempt("process.env", "n8n CVE-2025-68613", ["exception"], "return process.env[inputs.secretName]"),
  attempt("process.binding", "vm2 GHSA-ch3r-j5x3-6q2m", ["exception"], "return process.binding('spawn_sync')"),
  attempt("Deno", "Deno runtime API", ["exception"], "return Deno.readTextFileSync(inputs.markerPath)"),
  attempt("Bun", "Bun runtime API", ["exception"], "return await Bun.file(inputs.markerPath).text()"),
  // The network and the files.
  attempt("fetch to the loopback listener", "SSRF from a code node", ["exception"], "return await fetch('http://127.0.0.1:' + inputs.port + '/')"),
  attempt("XMLHttpRequest and WebSocket", "SSRF from a code node", ["exception"], "new WebSocket('ws://127.0.0.1:' + inputs.port);\nreturn new XMLHttpRequest()"),
  attempt("net.connect through a reached require", "n8n CVE-2025-68613", ["exception"], "return this.constructor.constructor('return require')()('net').connect(inputs.port, '127.0.0.1')"),
  attempt("fs.writeFileSync on the marker", "Langflow CVE-2025-3248", ["exception"], "require('fs').writeFileSync(inputs.markerPath, 'overwritten');\nreturn 'ESCAPED wrote'"),
  attempt("timers", "n8n CVE-2025-68613", ["exception"], "setTimeout(() => {}, 0);\nreturn 1"),
  // The wrapper.
  attempt("closing the wrapper early", "Langflow CVE-2025-3248 (code run while only being defined)", ["value", "syntax", "exception", "not-json"],
    "});\nglobalThis.reached = typeof process;\n(async function () {\nreturn globalThis.reached"),
  attempt("default parameters evaluated at definition", "Langflow CVE-2025-3248", ["exception"], "return (function (reach = process.mainModule) { return reach; })()"),
];
