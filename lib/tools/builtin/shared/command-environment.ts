/** The only variables of the studio's own environment a command inherits. */
export const INHERITED_ENVIRONMENT = ["PATH", "HOME", "LANG", "LC_ALL", "TERM", "TMPDIR", "USER"] as const;

/**
 * The environment a command sees: a few harmless variables of the studio's
 * environment plus the workflow's own. Never the rest: the studio's
 * environment holds its secret key.
 */
export function commandEnvironment(extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of INHERITED_ENVIRONMENT) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...extra };
}
