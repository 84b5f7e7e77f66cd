import type { RuleScorer, Verdict } from "@/lib/contracts/evaluation-scorer";
import { canonicalJson } from "@/lib/tools/permissions/canonical-json";
import { splitPath, valueAtPath } from "@/lib/workflow/templates";
import { z } from "zod";

/**
 * Scores one run's output against its row's expected output, as a scorer's
 * settings say. Pure and synchronous: the same output and row always give the
 * same verdict, so two evaluations compare by their runs, not by chance.
 */

/** The row's expected output; `undefined` when the row has none. */
export function score(scorer: RuleScorer, output: unknown, expected: unknown): Verdict {
  switch (scorer.kind) {
    case "exact": {
      if (expected === undefined) return noExpected();
      const shape = (value: unknown) => {
        let text = asText(value);
        if (scorer.trim) text = text.trim();
        return scorer.caseSensitive ? text : text.toLowerCase();
      };
      return pass(shape(output) === shape(expected), "the output is the expected text", `the output differs from the expected text`);
    }
    case "contains": {
      const wanted = scorer.text !== "" ? scorer.text : expected === undefined ? null : asText(expected);
      if (wanted === null) return noExpected();
      const fold = (text: string) => (scorer.caseSensitive ? text : text.toLowerCase());
      return pass(fold(asText(output)).includes(fold(wanted)), `the output contains “${shorten(wanted)}”`, `the output does not contain “${shorten(wanted)}”`);
    }
    case "json-equal": {
      if (expected === undefined) return noExpected();
      const [actual, wanted] = [at(asJson(output), scorer.path), at(asJson(expected), scorer.path)];
      if (actual === undefined) return fail(`the output has nothing at ${scorer.path || "its top"}`);
      return pass(canonicalJson(actual) === canonicalJson(wanted), `equal${where(scorer.path)}`, `${shorten(canonicalJson(actual))} is not ${shorten(canonicalJson(wanted))}${where(scorer.path)}`);
    }
    case "number": {
      if (expected === undefined) return noExpected();
      const [actual, wanted] = [asNumber(at(asJson(output), scorer.path)), asNumber(at(asJson(expected), scorer.path))];
      if (wanted === null) return { score: null, passed: null, reason: `the expected output has no number${where(scorer.path)}` };
      if (actual === null) return fail(`the output has no number${where(scorer.path)}`);
      const off = Math.abs(actual - wanted);
      return pass(off <= scorer.tolerance, `${actual} is within ${scorer.tolerance} of ${wanted}`, `${actual} is ${off} from ${wanted} (tolerance ${scorer.tolerance})`);
    }
    case "regex": {
      const matches = new RegExp(scorer.pattern, scorer.caseSensitive ? "u" : "iu").test(asText(output));
      return pass(matches, `the output matches /${shorten(scorer.pattern)}/`, `the output does not match /${shorten(scorer.pattern)}/`);
    }
    case "json-schema": {
      const checked = z.fromJSONSchema(scorer.schema as Parameters<typeof z.fromJSONSchema>[0]).safeParse(asJson(output));
      if (checked.success) return { score: 1, passed: true, reason: "the output fits the schema" };
      const first = checked.error.issues[0]!;
      return fail(`the output does not fit the schema: ${first.path.length > 0 ? `${first.path.join(".")}: ` : ""}${first.message}`);
    }
  }
}

function pass(passed: boolean, ifPassed: string, ifFailed: string): Verdict {
  return { score: passed ? 1 : 0, passed, reason: passed ? ifPassed : ifFailed };
}

function fail(reason: string): Verdict {
  return { score: 0, passed: false, reason };
}

function noExpected(): Verdict {
  return { score: null, passed: null, reason: "the row has no expected output to compare with" };
}

/** A value as text: text as it is, anything else as its JSON. */
function asText(value: unknown): string {
  if (typeof value === "string") return value;
  return value === undefined ? "" : JSON.stringify(value);
}

/** A value as JSON: text that is JSON read as it, anything else as it is. */
function asJson(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

function asNumber(value: unknown): number | null {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  return null;
}

/** The value at a dotted path (checked by the scorer's schema); the whole value for an empty one. */
function at(value: unknown, path: string): unknown {
  if (path === "") return value;
  const split = splitPath(path);
  return "path" in split ? valueAtPath(value, split.path) : undefined;
}

const where = (path: string) => (path === "" ? "" : ` at ${path}`);

const shorten = (text: string) => (text.length > 80 ? `${text.slice(0, 77)}…` : text);
