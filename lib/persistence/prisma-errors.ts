/** Prisma's known request errors, read by code so no class identity is needed across module copies. */
function prismaCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/**
 * A unique constraint refused the write: P2002 through Prisma, SQLITE_CONSTRAINT_UNIQUE (or _PRIMARYKEY, a row whose
 * id exists: a run created with an id taken for it beforehand) through a prepared statement, 23505 (unique_violation)
 * through PostgreSQL's statement pool.
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = prismaCode(error);
  return code === "P2002" || code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "23505";
}

/** The row to update or delete does not exist (P2025). */
export function isRecordNotFound(error: unknown): boolean {
  return prismaCode(error) === "P2025";
}
