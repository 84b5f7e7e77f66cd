/** A stored secret as the page shows it: never its value. Times as ISO strings. */
export interface SecretRow {
  name: string;
  description: string;
  tool: string | null;
  /** The workflows whose steps may use it; null: every workflow. */
  workflows: string[] | null;
  updatedAt: string;
}

/** A workflow a secret can be limited to, as the Usable by field lists it. */
export interface SecretWorkflowChoice {
  id: string;
  name: string;
}

/** A tool whose inputs take a secret, as the Tool picker offers it. */
export interface SecretTool {
  name: string;
  title: string;
  credentialHelp: string;
}

/** POST /api/secrets and PUT /api/secrets/{name}: the metadata, and what the tool's checkSecret said ("" = usable). */
export interface SecretSaveResponse {
  secret: { name: string; description: string; tool: string | null; workflows: string[] | null; updatedAt: string };
  problem: string;
}

export function toSecretRow(secret: { name: string; description: string; tool: string | null; workflows: string[] | null; updatedAt: Date | string }): SecretRow {
  return {
    name: secret.name,
    description: secret.description,
    tool: secret.tool,
    workflows: secret.workflows,
    updatedAt: typeof secret.updatedAt === "string" ? secret.updatedAt : secret.updatedAt.toISOString(),
  };
}

export function secretPath(name: string): string {
  return `/api/secrets/${encodeURIComponent(name)}`;
}
