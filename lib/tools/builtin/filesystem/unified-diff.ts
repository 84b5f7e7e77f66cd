import { createTwoFilesPatch, FILE_HEADERS_ONLY } from "diff";
import { truncateMiddle } from "../shared/limits";

/** Approval summaries stay readable; the person can open the file for the rest. */
export const MAX_DIFF_CHARACTERS = 20_000;

// Diffing two large, very different texts is quadratic; past this the summary says so instead.
const DIFF_TIMEOUT_MS = 1_000;

/**
 * A unified diff of `before` (null for a new file) against `after`, with the
 * root-relative path in its headers, cut to `limit` characters.
 *
 * @example
 *   unifiedDiff("notes.md", "a\n", "b\n") // "--- notes.md\n+++ notes.md\n@@ -1,1 +1,1 @@\n-a\n+b\n"
 */
export function unifiedDiff(relativePath: string, before: string | null, after: string, limit = MAX_DIFF_CHARACTERS): string {
  const patch = createTwoFilesPatch(before === null ? "/dev/null" : relativePath, relativePath, before ?? "", after, undefined, undefined, {
    context: 3,
    headerOptions: FILE_HEADERS_ONLY,
    timeout: DIFF_TIMEOUT_MS,
  });
  if (patch === undefined) {
    const lines = (text: string) => text.split("\n").length;
    return `${relativePath}: the change is too large to show as a diff (${before === null ? 0 : lines(before)} lines before, ${lines(after)} lines after).`;
  }
  return truncateMiddle(patch, limit);
}
