import { getDatabase, listSecrets, type SecretMetadata, type StudioDatabase } from "@/lib/persistence";
import type { Principal } from "./principal";
import { workflowIdsWith } from "./workflow-access";

/**
 * The secrets a person may pick from, as they may see them. A secret limited
 * to some workflows belongs to those: to whoever may not read any of them it
 * is not listed, and by name it is the same 404 as one that does not exist;
 * to whoever reads some of them it names only those. Who manages secrets
 * (owners, admins) sees every one as it is. Values are never shown to anyone.
 */
export async function secretsFor(principal: Principal, database: StudioDatabase = getDatabase()): Promise<SecretMetadata[]> {
  const secrets = await listSecrets(database);
  if (principal.scopes.has("secret:manage")) return secrets;
  const readable = await workflowIdsWith(principal, "workflow:read", database);
  if (readable === null) return secrets;
  return secrets.flatMap((secret) => {
    if (secret.workflows === null) return [secret];
    const theirs = secret.workflows.filter((id) => readable.has(id));
    return theirs.length === 0 ? [] : [{ ...secret, workflows: theirs }];
  });
}
