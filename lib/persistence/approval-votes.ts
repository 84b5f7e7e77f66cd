import { getDatabase, type StudioDatabase } from "./database";
import { newId } from "./ids";
import { isUniqueViolation } from "./prisma-errors";

/**
 * The votes toward an approval that needs several people
 * (lib/contracts/approval-policy.ts). Each person counts once: the table's
 * unique key refuses a second vote of theirs, so two clicks (or two tabs)
 * racing cannot count twice.
 */

export interface VoteInput {
  approvalId: string;
  personId: string;
  name: string;
  approve: boolean;
  feedback: string | null;
}

/** Records the vote; "already" when this person voted on this approval before (nothing changes). */
export async function castVote(vote: VoteInput, database: StudioDatabase = getDatabase()): Promise<"cast" | "already"> {
  try {
    await database.approvalVote.create({ data: { id: newId(), ...vote } });
    return "cast";
  } catch (error) {
    if (isUniqueViolation(error)) return "already";
    throw error;
  }
}

/** The votes cast so far, oldest first. */
export async function votesOn(approvalId: string, database: StudioDatabase = getDatabase()): Promise<{ personId: string; approve: boolean }[]> {
  return database.approvalVote.findMany({ where: { approvalId }, orderBy: { createdAt: "asc" }, select: { personId: true, approve: true } });
}
