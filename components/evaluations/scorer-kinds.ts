import type { Scorer, ScorerKind } from "@/lib/contracts/evaluation-scorer";
import { CODE_TIME_LIMIT } from "@/nodes/code/definition";

/** Each kind of scorer as the evaluation form offers it: its name in the list, a line of help, and a new one's settings. */
export const SCORER_KINDS: { kind: ScorerKind; label: string; help: string }[] = [
  { kind: "exact", label: "Exact match", help: "The output is the expected text (spaces around it aside)." },
  { kind: "contains", label: "Contains", help: "The output contains a text (empty: the expected output)." },
  { kind: "json-equal", label: "JSON equal", help: "The output equals the expected JSON, whole or at a path." },
  { kind: "number", label: "Number within", help: "The number at a path is within a tolerance of the expected one." },
  { kind: "regex", label: "Regular expression", help: "The output matches a pattern." },
  { kind: "json-schema", label: "JSON Schema", help: "The output fits a JSON Schema." },
  { kind: "llm-judge", label: "LLM judge", help: "A model scores the output from 0 to 1 by your rubric, and says why." },
  { kind: "code", label: "Custom code", help: "JavaScript (as a Code step runs it) returns a score from 0 to 1, true or false." },
];

export const scorerKindLabel = (kind: string) => SCORER_KINDS.find((each) => each.kind === kind)?.label ?? kind;

/** A new scorer of `kind`, its settings the schema's defaults, its name the kind's. */
export function newScorer(kind: ScorerKind, name: string): Scorer {
  switch (kind) {
    case "exact":
      return { kind, name, caseSensitive: true, trim: true };
    case "contains":
      return { kind, name, text: "", caseSensitive: false };
    case "json-equal":
      return { kind, name, path: "" };
    case "number":
      return { kind, name, path: "", tolerance: 0 };
    case "regex":
      return { kind, name, pattern: "", caseSensitive: true };
    case "json-schema":
      return { kind, name, schema: { type: "object" } };
    case "llm-judge":
      return { kind, name, rubric: "", threshold: 0.5, model: { provider: "openai", model: "" } };
    case "code":
      return { kind, name, code: "return output === expected;", timeLimitMs: CODE_TIME_LIMIT.defaultMs };
  }
}
