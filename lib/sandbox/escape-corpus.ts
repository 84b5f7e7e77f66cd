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

export const ESCAPE_CORPUS: readonly EscapePayload[] = [
  // Constructor chains: reaching Function and asking it for the host's globals.
  {
    name: "this.constructor.constructor('return process')()",
    source: "n8n CVE-2025-68613",
    code: "return this.constructor.constructor('return process')().mainModule.require('child_process').execSync('id').toString()",
    expected: ["exception"],
  },
  { name: "arrow function constructor", source: "n8n CVE-2025-68613", code: "return (() => {}).constructor('return process.env')()[inputs.secretName]", expected: ["exception"] },
  { name: "[].map.constructor", source: "vm2 GHSA-ch3r-j5x3-6q2m", code: "return [].map.constructor('return require')()('fs').readFileSync(inputs.markerPath, 'utf8')", expected: ["exception"] },
  {
    name: "async function constructor",
    source: "vm2 CVE-2026-22709",
    code: "const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor;\nreturn await AsyncFunction('return process.env')()",
    expected: ["exception"],
  },
  {
    name: "generator function constructor",
    source: "vm2 GHSA-whpj-8f3w-67p5",
    code: "const GeneratorFunction = Object.getPrototypeOf(function* () {}).constructor;\nreturn GeneratorFunction('yield process.env')().next().value",
    expected: ["exception"],
  },
  {
    name: "async generator function constructor",
    source: "vm2 GHSA-whpj-8f3w-67p5",
    code: "const AsyncGeneratorFunction = Object.getPrototypeOf(async function* () {}).constructor;\nreturn (await AsyncGeneratorFunction('yield require(\"fs\")')().next()).value",
    expected: ["exception"],
  },
  { name: "tagged template calls Function", source: "n8n CVE-2025-68613", code: "return Function`return process`()", expected: ["exception"] },
  { name: "template literal evaluates a constructor chain", source: "n8n CVE-2025-68613", code: "return `${this.constructor.constructor('return process.env')()}`", expected: ["exception"] },
  {
    name: "Function through the prototypes of every built-in",
    source: "n8n CVE-2025-68613",
    code: `const found = [];
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
return found.length ? 'ESCAPED ' + found.join('; ') : 'clean';`,
    expected: ["value"],
  },
  {
    name: "host names on the global object",
    source: "Langflow CVE-2025-3248",
    code: "const host = ['process', 'require', 'module', 'exports', 'Buffer', 'global', 'fetch', 'XMLHttpRequest', 'WebSocket', 'setTimeout', 'setInterval', 'queueMicrotask', 'std', 'os', 'Deno', 'Bun', 'WebAssembly', 'Atomics', 'Worker', 'console', 'print', 'scriptArgs', '__loadScript'];\nconst present = host.filter((name) => name in globalThis);\nreturn present.length ? 'ESCAPED ' + present.join(',') : 'clean';",
    expected: ["value"],
  },
  // Promises, thenables, async generators.
  {
    name: "a returned thenable whose then reaches for the host",
    source: "vm2 CVE-2026-22709",
    code: "return { then(resolve) { resolve(this.constructor.constructor('return process')().env) } }",
    expected: ["exception"],
  },
  {
    name: "a Promise subclass with Symbol.species",
    source: "vm2 GHSA-cchq-frgv-rjh5",
    code: "class Sneaky extends Promise { static get [Symbol.species]() { return function (executor) { executor((value) => value, (error) => error); return { then() { return process; } }; }; } }\nreturn Sneaky.resolve(1).then((x) => x)",
    expected: ["value", "exception", "not-json"],
  },
  {
    name: "Promise.prototype.then replaced to catch the harness's callbacks",
    source: "vm2 CVE-2026-22709",
    code: "Promise.prototype.then = function (fulfilled) { return fulfilled.constructor('return process')(); };\nreturn Promise.resolve('safe')",
    expected: ["value", "exception"],
  },
  {
    name: "an async generator delegating to a hostile async iterator",
    source: "vm2 GHSA-whpj-8f3w-67p5",
    code: "async function* outer() { yield* { [Symbol.asyncIterator]() { return { next() { return process.env; } }; } }; }\nreturn (await outer().next()).value",
    expected: ["exception"],
  },
  { name: "an endless await chain", source: "vm2 GHSA-whpj-8f3w-67p5", code: "async function spin() { for (;;) await null; }\nreturn spin()", expected: ["time-limit"] },
  // Stack traces and thrown values.
  {
    name: "Error.prepareStackTrace to reach call-site objects",
    source: "vm2 CVE-2023-29017",
    code: "Error.prepareStackTrace = (error, frames) => frames.map((frame) => frame.getThis && frame.getThis()).map((self) => self && self.constructor.constructor('return process')());\nreturn String(new Error('x').stack)",
    expected: ["value", "exception"],
  },
  {
    name: "a stack getter that reaches for the host",
    source: "vm2 CVE-2023-30547",
    code: "const error = new Error('look');\nObject.defineProperty(error, 'stack', { get() { return process.mainModule; } });\nthrow error;",
    expected: ["exception"],
  },
  {
    name: "a thrown object whose toString reaches for the host",
    source: "vm2 CVE-2023-30547",
    code: "throw { toString() { return require('fs').readFileSync(inputs.markerPath, 'utf8'); } }",
    expected: ["exception"],
  },
  {
    name: "err.stack and arguments.callee.caller (frame walks)",
    source: "Python sandbox exception-frame walk (tb_frame.f_back.f_globals), translated",
    code: "try { null.x; } catch (error) { const caller = (function () { return arguments.callee.caller; })(); return [String(error.stack).includes('harness') ? 'harness visible' : 'code only', typeof caller]; }",
    expected: ["value", "exception"],
  },
  {
    name: "Function.prototype.caller",
    source: "Python sandbox exception-frame walk (tb_frame.f_back.f_globals), translated",
    code: "function inner() { return inner.caller && inner.caller.constructor('return process')(); }\nreturn inner()",
    expected: ["exception", "value", "not-json"],
  },
  {
    name: "property walks over an error object",
    source: "Python format-string attribute walk ('{0.__class__.__init__.__globals__}'), translated",
    code: "const error = new TypeError('x');\nconst global = error.constructor.constructor('return this')();\nconst reached = Object.getOwnPropertyNames(global).filter((name) => ['process', 'require', 'Buffer', 'std', 'os'].includes(name));\nreturn reached.length ? 'ESCAPED ' + reached : 'clean';",
    expected: ["value"],
  },
  // What the result is made of: the host reads JSON text only.
  {
    name: "Symbol.species on a returned array",
    source: "vm2 GHSA-cchq-frgv-rjh5",
    code: "const list = [1, 2];\nlist.constructor = { [Symbol.species]: function () { return process; } };\nreturn list",
    expected: ["value"],
  },
  { name: "Symbol.toPrimitive on a returned value", source: "vm2 CVE-2022-36067", code: "return { [Symbol.toPrimitive]() { return process.env; }, toString() { return process.env; } }", expected: ["value"] },
  {
    name: "util.inspect.custom on a returned value",
    source: "vm2 CVE-2022-36067",
    code: "return { [Symbol.for('nodejs.util.inspect.custom')]() { return process.env; }, plain: 1 }",
    expected: ["value"],
  },
  {
    name: "a Proxy returned",
    source: "vm2 CVE-2023-32314",
    code: "return new Proxy({}, { get() { return process.env; }, ownKeys() { return ['a']; }, getOwnPropertyDescriptor() { return { value: 1, enumerable: true, configurable: true }; } })",
    // Awaiting the async function's result reads `then` through the get trap first.
    expected: ["exception", "not-json"],
  },
  { name: "a toJSON that throws", source: "vm2 CVE-2023-32314", code: "return { toJSON() { throw new Error(String(process.env)); } }", expected: ["not-json"] },
  { name: "a toJSON that loops", source: "vm2 CVE-2023-32314", code: "return { toJSON() { for (;;) {} } }", expected: ["time-limit"] },
  {
    name: "__proto__ and constructor.prototype in the values coming out",
    source: "n8n CVE-2025-68613",
    code: "const parsed = JSON.parse('{\"__proto__\": {\"polluted\": \"yes\"}, \"constructor\": {\"prototype\": {\"polluted\": \"yes\"}}}');\nreturn [parsed, { ['__proto__']: { polluted: 'yes' } }, { constructor: { prototype: { polluted: 'yes' } } }]",
    expected: ["value"],
  },
  {
    name: "the guest's own prototypes polluted",
    source: "n8n CVE-2025-68613",
    code: "Object.prototype.polluted = 'yes';\nArray.prototype.polluted = 'yes';\nObject.prototype.toJSON = function () { return 'every object replaced'; };\nreturn { a: 1 }",
    expected: ["value"],
  },
  // Modules, eval and what the engine leaves out.
  { name: "import('fs')", source: "Langflow CVE-2025-3248", code: "const fs = await import('fs');\nreturn fs.readFileSync(inputs.markerPath, 'utf8')", expected: ["exception"] },
  {
    name: "import('node:child_process')",
    source: "Langflow CVE-2025-3248",
    code: "const childProcess = await import('node:child_process');\nreturn childProcess.execSync('cat ' + inputs.databasePath).toString()",
    expected: ["exception"],
  },
  { name: "import of QuickJS's own std module", source: "QuickJS qjs std/os modules", code: "const std = await import('std');\nreturn std.loadFile(inputs.markerPath)", expected: ["exception"] },
  { name: "eval of host names", source: "Langflow CVE-2025-3248", code: "return eval('process.env')[inputs.secretName]", expected: ["exception"] },
  { name: "indirect eval", source: "Langflow CVE-2025-3248", code: "return (0, eval)('require')('fs').readFileSync(inputs.databasePath)", expected: ["exception"] },
  { name: "new Function", source: "Langflow CVE-2025-3248", code: "return new Function('return process.env')()[inputs.secretName]", expected: ["exception"] },
  { name: "WebAssembly", source: "vm2 GHSA-ch3r-j5x3-6q2m", code: "return WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]))", expected: ["exception"] },
  { name: "SharedArrayBuffer (harmless: one thread)", source: "Spectre-style timers", code: "const shared = new SharedArrayBuffer(8);\nreturn shared.byteLength", expected: ["value"] },
  { name: "Atomics.wait", source: "Spectre-style timers", code: "return Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10)", expected: ["exception"] },
  { name: "globalThis.std and os", source: "QuickJS qjs std/os modules", code: "return globalThis.std.open(inputs.markerPath, 'w')", expected: ["exception"] },
  { name: "os.exec", source: "QuickJS qjs std/os modules", code: "return os.exec(['cat', inputs.markerPath])", expected: ["exception"] },
  { name: "require", source: "Langflow CVE-2025-3248", code: "return require('fs').readFileSync(inputs.markerPath, 'utf8')", expected: ["exception"] },
  { name: "process.env", source: "n8n CVE-2025-68613", code: "return process.env[inputs.secretName]", expected: ["exception"] },
  { name: "process.binding", source: "vm2 GHSA-ch3r-j5x3-6q2m", code: "return process.binding('spawn_sync')", expected: ["exception"] },
  { name: "Deno", source: "Deno runtime API", code: "return Deno.readTextFileSync(inputs.markerPath)", expected: ["exception"] },
  { name: "Bun", source: "Bun runtime API", code: "return await Bun.file(inputs.markerPath).text()", expected: ["exception"] },
  // The network and the files.
  { name: "fetch to the loopback listener", source: "SSRF from a code node", code: "return await fetch('http://127.0.0.1:' + inputs.port + '/')", expected: ["exception"] },
  { name: "XMLHttpRequest and WebSocket", source: "SSRF from a code node", code: "new WebSocket('ws://127.0.0.1:' + inputs.port);\nreturn new XMLHttpRequest()", expected: ["exception"] },
  { name: "net.connect through a reached require", source: "n8n CVE-2025-68613", code: "return this.constructor.constructor('return require')()('net').connect(inputs.port, '127.0.0.1')", expected: ["exception"] },
  { name: "fs.writeFileSync on the marker", source: "Langflow CVE-2025-3248", code: "require('fs').writeFileSync(inputs.markerPath, 'overwritten');\nreturn 'ESCAPED wrote'", expected: ["exception"] },
  { name: "timers", source: "n8n CVE-2025-68613", code: "setTimeout(() => {}, 0);\nreturn 1", expected: ["exception"] },
  // The wrapper.
  {
    name: "closing the wrapper early",
    source: "Langflow CVE-2025-3248 (code run while only being defined)",
    code: "});\nglobalThis.reached = typeof process;\n(async function () {\nreturn globalThis.reached",
    expected: ["value", "syntax", "exception", "not-json"],
  },
  {
    name: "default parameters evaluated at definition",
    source: "Langflow CVE-2025-3248",
    code: "return (function (reach = process.mainModule) { return reach; })()",
    expected: ["exception"],
  },
];
