import { z } from "zod";
import { NotFoundError } from "@/lib/persistence/errors";

/** An id from the path: short, printable; anything else cannot name a record, so 404. */
export const PathIdSchema = z.string().min(1).max(200).regex(/^[A-Za-z0-9_.:-]+$/);

export function pathId(value: string, kind: string): string {
  const parsed = PathIdSchema.safeParse(value);
  if (!parsed.success) throw new NotFoundError(kind, value.slice(0, 200));
  return parsed.data;
}
