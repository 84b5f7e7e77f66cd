import { SecretRefused, type SecretResolver, type SecretUse } from "@/lib/tools/secrets";
import {
  CreateSecretBodySchema,
  SecretNameSchema,
  UpdateSecretBodySchema,
  type CreateSecretInput,
  type UpdateSecretInput,
} from "@/lib/validations/secret";
import { getDatabase, type StudioDatabase } from "./database";
import { ConflictError, NotFoundError } from "./errors";
import { isRecordNotFound, isUniqueViolation } from "./prisma-errors";
import type { SecretBox } from "./secret-box";
import { openSecretBox, secretContext } from "./secret-key";

/**
 * The encrypted secret store. Values go in through create/replace and come out
 * only through `resolveSecret` / `secretResolver` (for the runner); everything
 * else sees metadata. Each function takes the database last, default the
 * process's (`getDatabase()`).
 */

/** What lists and forms show about a secret: never its value. */
export interface SecretMetadata {
  name: string;
  description: string;
  tool: string | null;
  /** The workflows whose steps may use it; null: every workflow. */
  workflows: string[] | null;
  createdAt: Date;
  updatedAt: Date;
}

const METADATA = { name: true, description: true, tool: true, workflowIds: true, createdAt: true, updatedAt: true } as const;

type MetadataRow = { name: string; description: string; tool: string | null; workflowIds: string | null; createdAt: Date; updatedAt: Date };

function toMetadata({ workflowIds, ...row }: MetadataRow): SecretMetadata {
  return { ...row, workflows: storedWorkflowIds(workflowIds) };
}

function storedWorkflowIds(column: string | null): string[] | null {
  return column === null ? null : (JSON.parse(column) as string[]);
}

function workflowIdsColumn(workflows: readonly string[] | null): string | null {
  return workflows === null ? null : JSON.stringify([...new Set(workflows)].sort());
}

const boxes = new WeakMap<StudioDatabase, Promise<SecretBox>>();

/**
 * The database's secret box, opened (and the key checked) once per client.
 * Awaiting it at start makes the studio refuse a mismatched key before serving.
 */
export function getSecretBox(database: StudioDatabase = getDatabase()): Promise<SecretBox> {
  let box = boxes.get(database);
  if (!box) {
    box = openSecretBox(database);
    // A failure (say, a key file to restore) is retried on the next call, not remembered.
    box.catch(() => boxes.delete(database));
    boxes.set(database, box);
  }
  return box;
}

export async function listSecrets(database: StudioDatabase = getDatabase()): Promise<SecretMetadata[]> {
  return (await database.secret.findMany({ select: METADATA, orderBy: { name: "asc" } })).map(toMetadata);
}

/** Throws ConflictError when the name is taken, ZodError on invalid input. */
export async function createSecret(input: CreateSecretInput, database: StudioDatabase = getDatabase()): Promise<SecretMetadata> {
  const body = CreateSecretBodySchema.parse(input);
  const box = await getSecretBox(database);
  try {
    const row = await database.secret.create({
      data: {
        name: body.name,
        description: body.description,
        tool: body.tool,
        workflowIds: workflowIdsColumn(body.workflows),
        ciphertext: box.seal(body.value, secretContext(body.name)),
      },
      select: METADATA,
    });
    return toMetadata(row);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw new ConflictError("secret", body.name, `A secret named ${body.name} already exists. Replace its value, or choose another name.`);
  }
}

/** Replaces the fields given; throws NotFoundError for an unknown name. */
export async function replaceSecret(
  name: string,
  input: UpdateSecretInput,
  database: StudioDatabase = getDatabase(),
): Promise<SecretMetadata> {
  const body = UpdateSecretBodySchema.parse(input);
  const box = await getSecretBox(database);
  try {
    const row = await database.secret.update({
      where: { name },
      data: {
        ...(body.value !== undefined ? { ciphertext: box.seal(body.value, secretContext(name)) } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
        ...(body.tool !== undefined ? { tool: body.tool } : {}),
        ...(body.workflows !== undefined ? { workflowIds: workflowIdsColumn(body.workflows) } : {}),
      },
      select: METADATA,
    });
    return toMetadata(row);
  } catch (error) {
    if (isRecordNotFound(error)) throw new NotFoundError("secret", name);
    throw error;
  }
}

/** Throws NotFoundError for an unknown name. */
export async function deleteSecret(name: string, database: StudioDatabase = getDatabase()): Promise<void> {
  const { count } = await database.secret.deleteMany({ where: { name } });
  if (count === 0) throw new NotFoundError("secret", name);
}

/**
 * The plaintext, or undefined when no such secret exists. For the runner only:
 * never send it to a client. With `use` (a step of a workflow's run), a secret
 * limited to other workflows is refused (SecretRefused), before it is decrypted.
 */
export async function resolveSecret(name: string, database: StudioDatabase = getDatabase(), use?: SecretUse): Promise<string | undefined> {
  const parsed = SecretNameSchema.safeParse(name);
  if (!parsed.success) return undefined;
  const row = await database.secret.findUnique({ where: { name: parsed.data }, select: { ciphertext: true, workflowIds: true } });
  if (!row) return undefined;
  const allowed = storedWorkflowIds(row.workflowIds);
  if (use && allowed !== null && !allowed.includes(use.workflowId)) {
    throw new SecretRefused("is limited to other workflows: an owner or admin can let this one use it (Settings → Secrets, Usable by)");
  }
  const box = await getSecretBox(database);
  return box.open(row.ciphertext, secretContext(parsed.data));
}

/** A SecretResolver (lib/tools) over this store, for tool contexts. */
export function secretResolver(database: StudioDatabase = getDatabase()): SecretResolver {
  return (name, use) => resolveSecret(name, database, use);
}
