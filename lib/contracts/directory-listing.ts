import { z } from "zod";

/** What the folder picker shows of one folder (GET /api/directories): its sub-folders' names, never files. */
export const DirectoryListingSchema = z.object({
  /** The folder listed, with symbolic links resolved. */
  path: z.string(),
  /** The browse root it lies in. */
  root: z.string(),
  /** The folder above, or null at a browse root. */
  parent: z.string().nullable(),
  /** Sub-folder names, sorted. */
  directories: z.array(z.string()),
  truncated: z.boolean(),
  /** Every browse root, for the picker's starting points. */
  roots: z.array(z.string()),
});
export type DirectoryListing = z.infer<typeof DirectoryListingSchema>;
