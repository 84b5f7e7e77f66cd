import { CODE_FILE_NAME } from "./code-wrapper";

/**
 * The JavaScript that runs INSIDE QuickJS, in each job's fresh context, before the author's code: it calls the
 * author's function (once, or once per item), awaits what it returns, and turns every result into JSON text inside
 * the VM. The worker then reads one string out of the VM and nothing else, so no guest getter, Proxy, toJSON or
 * Symbol trick ever runs in, or hands anything to, a Node process.
 *
 * Everything the harness needs is taken from the intrinsics before the author's code runs (it may replace
 * `JSON.stringify` or `Promise.prototype.then`), and the records it builds have no prototype (the author may add
 * getters or a `toJSON` to `Object.prototype`). Whatever the author does can at worst make a report inaccurate,
 * never reach outside the VM: the worker only reads a string whose length it has checked.
 *
 * Reading a thrown value (its name, message, stack) may run the author's getters: every read is in a try/catch,
 * with the time limit still in force (an endless getter is interrupted; QuickJS's interrupt cannot be caught), and
 * each text is cut to TEXT_KEPT characters.
 *
 * The result of `collect`: line 1 is a JSON header `{ items: [...], whole }`; after it one line of JSON per item
 * that returned a value (JSON.stringify never writes a raw line feed). Header entries:
 * `{ state: "ok", ms }`, `{ state: "thrown", ms, thrown: Description }`, `{ state: "not-json", ms, reason }`,
 * `{ state: "output-limit", ms }`, `{ state: "pending", ms }`; `whole` is null or "output-limit" (all items together).
 */
export const GUEST_HARNESS = String.raw`(function () {
  "use strict";
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const apply = Reflect.apply;
  const promiseThen = Promise.prototype.then;
  const stringSlice = String.prototype.slice;
  const toText = String;
  const now = Date.now;
  const InternalErrorPrototype = InternalError.prototype;
  const getPrototypeOf = Object.getPrototypeOf;
  const regexpExec = RegExp.prototype.exec;
  const toNumber = Number;
  // The first frame in the author's code: "at f (code:3:7)", or "at code:3:7" for a syntax error.
  const LOCATION = /(?:\(|at )${CODE_FILE_NAME}:(\d+):(\d+)/;
  const TEXT_KEPT = 2000;
  let records = null;

  function newList() {
    const list = [];
    Object.setPrototypeOf(list, null);
    return list;
  }

  function bounded(value) {
    try {
      const text = typeof value === "string" ? value : toText(value);
      return typeof text === "string" ? apply(stringSlice, text, [0, TEXT_KEPT]) : null;
    } catch (_) {
      return null;
    }
  }

  function describe(thrown) {
    const description = { __proto__: null, isObject: false, name: null, message: null, line: null, column: null };
    if ((typeof thrown !== "object" || thrown === null) && typeof thrown !== "function") {
      description.message = bounded(thrown);
      return description;
    }
    description.isObject = true;
    try { description.name = bounded(thrown.name); } catch (_) {}
    try { description.message = bounded(thrown.message); } catch (_) {}
    try {
      const stack = bounded(thrown.stack);
      const found = stack === null ? null : apply(regexpExec, LOCATION, [stack]);
      if (found !== null) {
        description.line = toNumber(found[1]);
        description.column = toNumber(found[2]);
      }
    } catch (_) {}
    if (description.name === null && description.message === null) description.message = bounded(thrown);
    return description;
  }

  function isOutOfMemory(error) {
    try {
      return getPrototypeOf(error) === InternalErrorPrototype && error.message === "out of memory";
    } catch (_) {
      return false;
    }
  }

  // Only after a plain JSON.stringify ran out of memory: walks the value again, counting roughly what the JSON
  // would hold, and stops as soon as that passes the budget. True: the result is too large to be output.
  function exceedsBudget(value, budget) {
    const tooLarge = {};
    let size = 0;
    try {
      stringify(value, function (key, part) {
        size += key.length + 2;
        size += typeof part === "string" ? part.length + 2 : typeof part === "object" && part !== null ? 2 : bounded(part).length;
        if (size > budget) throw tooLarge;
        return part;
      });
    } catch (error) {
      return error === tooLarge;
    }
    return false;
  }

  function settle(record, fulfilled, outcome) {
    if (record.settled) return;
    record.settled = true;
    record.fulfilled = fulfilled;
    record.outcome = outcome;
  }

  function invoke(userFunction, argumentList) {
    const record = { __proto__: null, settled: false, fulfilled: false, outcome: undefined, ms: 0 };
    const started = now();
    let returned;
    try {
      returned = apply(userFunction, undefined, argumentList);
      apply(promiseThen, returned, [(value) => settle(record, true, value), (error) => settle(record, false, error)]);
    } catch (error) {
      settle(record, false, error);
    }
    record.ms = now() - started;
    return record;
  }

  function start(userFunction, baseArgumentsJson, itemsJson) {
    const baseArguments = parse(baseArgumentsJson);
    records = newList();
    if (itemsJson === null) {
      records[0] = invoke(userFunction, baseArguments);
      return;
    }
    const items = parse(itemsJson);
    const baseCount = baseArguments.length;
    for (let index = 0; index < items.length; index += 1) {
      const argumentList = newList();
      for (let position = 0; position < baseCount; position += 1) argumentList[position] = baseArguments[position];
      argumentList[baseCount] = items[index];
      argumentList[baseCount + 1] = index;
      records[index] = invoke(userFunction, argumentList);
    }
  }

  function serialize(value, budget) {
    let json;
    try {
      json = stringify(value);
    } catch (error) {
      if (isOutOfMemory(error)) {
        if (exceedsBudget(value, budget)) return { __proto__: null, state: "output-limit" };
        throw error;
      }
      return { __proto__: null, state: "not-json", reason: "could not be turned into JSON: " + (bounded(describe(error).message) || "unknown error") };
    }
    if (typeof json !== "string") {
      const kind = typeof value;
      return { __proto__: null, state: "not-json", reason: kind === "undefined" ? "undefined" : "a value of type " + kind };
    }
    if (json.length > budget) return { __proto__: null, state: "output-limit" };
    return { __proto__: null, state: "ok", json };
  }

  function collect(budget) {
    const header = { __proto__: null, items: newList(), whole: null };
    let body = "";
    let total = 0;
    for (let index = 0; index < records.length; index += 1) {
      const record = records[index];
      let entry;
      if (!record.settled) entry = { __proto__: null, state: "pending" };
      else if (!record.fulfilled) entry = { __proto__: null, state: "thrown", thrown: describe(record.outcome) };
      else {
        entry = serialize(record.outcome, budget);
        if (entry.state === "ok") {
          total += entry.json.length;
          if (total > budget) {
            header.whole = "output-limit";
            return stringify(header);
          }
          body += "\n" + entry.json;
          entry.json = undefined;
        }
      }
      record.outcome = undefined;
      entry.ms = record.ms;
      header.items[index] = entry;
    }
    return stringify(header) + body;
  }

  return { __proto__: null, start, collect, describe: (thrown) => stringify(describe(thrown)) };
})()`;
