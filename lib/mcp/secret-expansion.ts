import type { SecretResolver } from "@/lib/tools";
import { markedError } from "@/lib/marked-error";

/** `${NAME}`: a stored secret's name, as in workflows. */
const REFERENCE = /\$\{([A-Z_][A-Z0-9_]*)\}/g;

/** The secret names a text refers to, e.g. `Bearer ${GITHUB_TOKEN}` -> ["GITHUB_TOKEN"]. */
export function secretReferences(text: string): string[] {
  return [...text.matchAll(REFERENCE)].map((match) => match[1]!);
}

/** Thrown when a `${NAME}` names no stored secret; the message says where to store it. */
export class MissingSecretError extends markedError("neurosurfer.mcp-missing-secret", "MissingSecretError") {
  constructor(
    readonly secret: string,
    readonly field: string,
  ) {
    super(`${field} refers to the secret \${${secret}}, which is not set. Store it in Settings → Secrets under the name ${secret}.`);
  }
}

/**
 * Replaces every `${NAME}` in the values with the stored secret, at connect
 * time, so the values never sit in the database or a log in the clear. Returns
 * the expanded values and the secrets used (to mask them in error messages).
 */
export async function expandSecrets(
  values: Readonly<Record<string, string>>,
  secrets: SecretResolver,
  what: string,
): Promise<{ values: Record<string, string>; used: string[] }> {
  const expanded: Record<string, string> = {};
  const used: string[] = [];
  for (const [key, value] of Object.entries(values)) {
    let text = value;
    for (const name of new Set(secretReferences(value))) {
      const secret = await secrets(name);
      if (secret === undefined) throw new MissingSecretError(name, `${what} ${key}`);
      used.push(secret);
      text = text.split(`\${${name}}`).join(secret);
    }
    expanded[key] = text;
  }
  return { values: expanded, used };
}
