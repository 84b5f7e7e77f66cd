import type { ApiIssue } from "@/lib/client/api";

/** The API's issues split into those a form field shows inline and those the form shows as a whole. */
export interface SortedIssues<Field extends string> {
  fields: Partial<Record<Field, string>>;
  other: ApiIssue[];
}

/** The top-level key an issue's path names: `name`, `nodes[2].id` -> `nodes`, `(arguments)` -> "". */
export function issueField(path: string): string {
  const match = /^[A-Za-z_$][\w$]*/.exec(path);
  return match ? match[0] : "";
}

/**
 * Maps each issue to the form field its `path` names (the first message per
 * field wins: it is the one to fix first); issues about anything else stay
 * in `other`, so no message is lost.
 *
 * @example
 *   issuesByField([{ path: "name", message: "a secret name is upper-case ..." }], ["name", "value"])
 *   // { fields: { name: "A secret name is upper-case ..." }, other: [] }
 */
export function issuesByField<Field extends string>(issues: readonly ApiIssue[], fields: readonly Field[]): SortedIssues<Field> {
  const known = new Set<string>(fields);
  const sorted: SortedIssues<Field> = { fields: {}, other: [] };
  for (const issue of issues) {
    const field = issueField(issue.path);
    if (known.has(field)) {
      sorted.fields[field as Field] ??= asSentence(issue.message);
    } else {
      sorted.other.push(issue);
    }
  }
  return sorted;
}

/** A zod message ("enter the secret's value") as a sentence for a person: "Enter the secret's value." */
export function asSentence(message: string): string {
  const trimmed = message.trim();
  if (trimmed === "") return trimmed;
  const capitalised = trimmed[0]!.toUpperCase() + trimmed.slice(1);
  return /[.!?)]$/.test(capitalised) ? capitalised : `${capitalised}.`;
}

/** A field's message from the form as a sentence, or nothing when it has none. */
export function fieldSentence(message: string | undefined): string | undefined {
  return message ? asSentence(message) : undefined;
}

/** How an issue's path reads in a list of problems; the whole document has no path. */
export function describeIssuePath(path: string): string {
  return path === "" || path === "(arguments)" ? "(the file as a whole)" : path;
}
