import { z } from "zod";

/**
 * Settings of every tool that works in a folder: one required field, `root`,
 * marked `format: directory` so the studio renders a folder picker. Path
 * inputs of such tools are confined under it.
 */
export const WorkingDirectory = z
  .object({
    root: z
      .string()
      .min(1, "choose the folder this step works in")
      .meta({ title: "Folder", format: "directory", description: "The folder this step works in." }),
  })
  .meta({ title: "Working directory", description: "The folder this step works in." });

export type WorkingDirectorySettings = z.infer<typeof WorkingDirectory>;
