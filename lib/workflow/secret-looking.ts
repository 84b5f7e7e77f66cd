import { parseSecretReference, SECRET_MASK } from "@/lib/tools/contracts";

/** A value in some JSON that looks like a credential: where it is (a zod-style path) and why it looks so. */
export interface SecretLookingValue {
  path: (string | number)[];
  reason: string;
}

/** Shapes credentials are issued in: a value of one of these is a credential whatever its field is called. */
const CREDENTIAL_SHAPES: readonly { pattern: RegExp; reason: string }[] = [
  { pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----/, reason: "holds a private key" },
  { pattern: /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}/, reason: "looks like an API key (sk-…)" },
  { pattern: /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}|\bgithub_pat_[A-Za-z0-9_]{20,}/, reason: "looks like a GitHub token" },
  { pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/, reason: "looks like a Slack token" },
  { pattern: /\bAKIA[0-9A-Z]{16}\b/, reason: "looks like an AWS access key" },
  { pattern: /\bAIza[0-9A-Za-z_-]{35}\b/, reason: "looks like a Google API key" },
  { pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/, reason: "looks like a signed token (JWT)" },
  { pattern: /\bBearer\s+(?!•)[A-Za-z0-9._~+/-]{16,}/, reason: "holds a bearer token" },
  { pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:(?!•)[^\s@/]+@/i, reason: "holds a password in an address" },
];

/** Field names whose value is a credential whatever it looks like. */
const CREDENTIAL_FIELD = /^(?:password|passwd|pass|secret|client[_-]?secret|api[_-]?key|access[_-]?key|secret[_-]?key|(?:access|refresh|auth|id|bearer)[_-]?token|token|authorization|private[_-]?key|cookie|set-cookie)$/i;

const MAX_DEPTH = 100;

/**
 * Every value in `value` that looks like a credential: a string in one of the
 * shapes credentials are issued in, or a non-empty string under a field named
 * like one (`password`, `apiKey`, `authorization`), unless it is masked
 * (`••••••`) or a `${NAME}` reference to a stored secret. Pure.
 *
 * @example
 *   secretLookingValues({ data: { headers: { authorization: "Bearer abc…" } } })
 *   // [{ path: ["data", "headers", "authorization"], reason: "is a field named like a credential" }]
 */
export function secretLookingValues(value: unknown): SecretLookingValue[] {
  const found: SecretLookingValue[] = [];
  const walk = (current: unknown, path: (string | number)[], fieldName: string | null) => {
    if (path.length > MAX_DEPTH) return;
    if (typeof current === "string") {
      const reason = credentialReason(current, fieldName);
      if (reason) found.push({ path, reason });
      return;
    }
    if (Array.isArray(current)) {
      current.forEach((item, index) => walk(item, [...path, index], fieldName));
      return;
    }
    if (current !== null && typeof current === "object") {
      for (const [key, item] of Object.entries(current)) walk(item, [...path, key], key);
    }
  };
  walk(value, [], null);
  return found;
}

function credentialReason(text: string, fieldName: string | null): string | null {
  const trimmed = text.trim();
  if (trimmed === "" || trimmed.includes(SECRET_MASK) || parseSecretReference(trimmed) !== null) return null;
  for (const shape of CREDENTIAL_SHAPES) if (shape.pattern.test(text)) return shape.reason;
  if (fieldName !== null && CREDENTIAL_FIELD.test(fieldName)) return `is a field named like a credential (${fieldName})`;
  return null;
}

/**
 * Where `value` holds one of `secretValues` (the studio's stored secrets, by
 * name): the path and the secret's name, never its value.
 */
export function storedSecretsIn(value: unknown, secretValues: ReadonlyMap<string, string>): SecretLookingValue[] {
  const needles = [...secretValues].filter(([, secret]) => secret.length >= 4);
  if (needles.length === 0) return [];
  const found: SecretLookingValue[] = [];
  const walk = (current: unknown, path: (string | number)[]) => {
    if (path.length > MAX_DEPTH) return;
    if (typeof current === "string") {
      const hit = needles.find(([, secret]) => current.includes(secret));
      if (hit) found.push({ path, reason: `holds the value of the stored secret ${hit[0]}` });
    } else if (Array.isArray(current)) current.forEach((item, index) => walk(item, [...path, index]));
    else if (current !== null && typeof current === "object") for (const [key, item] of Object.entries(current)) walk(item, [...path, key]);
  };
  walk(value, []);
  return found;
}
