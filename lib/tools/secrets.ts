import { markedError } from "../marked-error";

/**
 * Looks up a stored secret by name. The host provides it (the studio reads its
 * encrypted store; a script may read the environment). `undefined` = not set.
 */
export type SecretResolver = (name: string, use?: SecretUse) => string | undefined | Promise<string | undefined>;

/** Who asks for a secret: a step of a run of this workflow. Left out for a use outside any workflow's run. */
export interface SecretUse {
  workflowId: string;
}

/**
 * A secret that exists but may not be used here (it is limited to other
 * workflows). A resolver throws it; the executor turns it into a refusal the
 * model can read, naming the input, never the value.
 */
export class SecretRefused extends markedError("neurosurfer.secret-refused", "SecretRefused") {}

const SECRET_REFERENCE = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

/** `"${DB_URL}"` -> `"DB_URL"`; anything else (a literal) -> `null`. */
export function parseSecretReference(value: string): string | null {
  return SECRET_REFERENCE.exec(value.trim())?.[1] ?? null;
}

/** A resolver over a plain record, e.g. `process.env` in a script. */
export function secretsFromRecord(record: Readonly<Record<string, string | undefined>>): SecretResolver {
  return (name) => record[name];
}

export const NO_SECRETS: SecretResolver = () => undefined;

/** `secrets` as the steps of `workflowId`'s runs see them: a secret limited to other workflows is refused. */
export function secretsOfWorkflow(secrets: SecretResolver, workflowId: string): SecretResolver {
  return (name) => secrets(name, { workflowId });
}

/** A stored secret's value, or what keeps it from use here, worded to follow "The secret NAME " ("is not set", "is limited to …"). */
export async function lookUpSecret(secrets: SecretResolver, name: string): Promise<{ value: string; problem: "" } | { value: undefined; problem: string }> {
  try {
    const value = await secrets(name);
    return value === undefined ? { value: undefined, problem: "is not set" } : { value, problem: "" };
  } catch (error) {
    if (SecretRefused.isInstance(error)) return { value: undefined, problem: error.message };
    throw error;
  }
}

/** The text a masked secret is replaced with. */
export const SECRET_MASK = "••••••";

/**
 * Replaces every known secret value in text. Besides the whole value it masks
 * the parts of it that leak on their own: a URL's password and a URL-encoded
 * copy, since drivers and HTTP clients print those.
 */
export class SecretMasker {
  private readonly needles: string[] = [];

  constructor(values: Iterable<string> = []) {
    for (const value of values) this.add(value);
  }

  add(value: string): void {
    for (const needle of leakableForms(value)) {
      // Very short values would mask ordinary words; a secret that short is not worth hiding this way.
      if (needle.length >= 4 && !this.needles.includes(needle)) this.needles.push(needle);
    }
    // Longest first, so a value is not half-replaced through one of its parts.
    this.needles.sort((left, right) => right.length - left.length);
  }

  get isEmpty(): boolean {
    return this.needles.length === 0;
  }

  mask(text: string): string {
    let masked = text;
    for (const needle of this.needles) masked = masked.split(needle).join(SECRET_MASK);
    return masked;
  }
}

function leakableForms(value: string): string[] {
  const forms = [value];
  const encoded = encodeURIComponent(value);
  if (encoded !== value) forms.push(encoded);
  try {
    const url = new URL(value);
    if (url.password) forms.push(url.password, decodeURIComponent(url.password));
  } catch {
    // Not a URL: the whole value is all there is to mask.
  }
  return forms;
}
