import type { FieldPath, FieldValues, UseFormSetError } from "react-hook-form";
import { ApiError } from "@/lib/client/api";
import { issuesByField } from "./form-issues";

/**
 * Puts a failed save's messages where they belong in a react-hook-form
 * form: 422 issues on the fields their paths name, a 409 (a name taken) on
 * `conflictField`, anything else on the form as a whole (`root.server`).
 */
export function applyApiError<Values extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<Values>,
  fields: readonly FieldPath<Values>[],
  conflictField?: FieldPath<Values>,
): void {
  if (error instanceof ApiError && error.status === 409 && conflictField) {
    setError(conflictField, { type: "server", message: error.message }, { shouldFocus: true });
    return;
  }
  if (error instanceof ApiError && error.issues.length > 0) {
    const sorted = issuesByField(error.issues, fields);
    let first = true;
    for (const field of fields) {
      const message = sorted.fields[field];
      if (message === undefined) continue;
      setError(field, { type: "server", message }, { shouldFocus: first });
      first = false;
    }
    if (sorted.other.length > 0 || first) setError("root.server", { type: "server", message: error.message });
    return;
  }
  setError("root.server", { type: "server", message: error instanceof Error ? error.message : String(error) });
}
