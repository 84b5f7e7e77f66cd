import { z } from "zod";
import { relativeToRoot } from "../../confinement";
import type { ToolContext } from "../../tool-context";
import { ToolResult } from "../../tool-result";
import { MAX_RESULT_CHARACTERS, truncateMiddle } from "../shared/limits";
import type { WorkingDirectorySettings } from "../shared/working-directory";
import { FolderTool } from "./folder-tool";
import {
  decodeText,
  describeFileError,
  fileErrorKind,
  formatBytes,
  imageTypeOfBytes,
  imageTypeOfName,
  looksBinary,
  MAX_FILE_BYTES,
  readExisting,
  rootOf,
  snapshotOf,
  specialFileError,
  splitLines,
  type ExistingFile,
} from "./file-content";

/** Lines returned when the caller gives no limit. */
export const DEFAULT_LINE_LIMIT = 2_000;
/** A longer line (minified code, a data dump) is cut, so one line cannot fill the result. */
export const MAX_LINE_CHARACTERS = 2_000;
/** Vision APIs refuse larger images. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

const ReadFileArgs = z.object({
  path: z
    .string()
    .min(1, "give the path of the file to read")
    .describe('The file to read, relative to the working folder (e.g. "src/index.ts").'),
  offset: z
    .number()
    .int()
    .min(1, "lines are numbered from 1")
    .optional()
    .describe("The first line to read, counting from 1. Use it with limit to read a long file in parts."),
  limit: z
    .number()
    .int()
    .min(1, "read at least one line")
    .optional()
    .describe(`How many lines to read at most. Defaults to ${DEFAULT_LINE_LIMIT}.`),
  lineNumbers: z
    .boolean()
    .default(false)
    .describe("Prefix every line with its line number, e.g. to cite or edit specific lines."),
});
type ReadFileArgs = z.infer<typeof ReadFileArgs>;

/** Reads a text file (or a window of its lines), or an image for vision models. */
export class ReadFileTool extends FolderTool<ReadFileArgs> {
  constructor() {
    super({
      name: "read_file",
      title: "Read a File",
      icon: "file-text",
      description:
        "Read a text file in the working folder and return its lines; PNG, JPEG, GIF and WebP images come back as images. " +
        `Long files are returned ${DEFAULT_LINE_LIMIT} lines at a time: use offset and limit to read further. ` +
        "Read a file before editing it with apply_edit.",
      inputModel: ReadFileArgs,
      capabilities: ["file.read"],
      progressVerb: "Reading",
    });
  }

  override async call(args: ReadFileArgs, ctx: ToolContext<WorkingDirectorySettings>): Promise<ToolResult> {
    const relativePath = relativeToRoot(rootOf(ctx), args.path);
    let file: ExistingFile;
    try {
      file = await readExisting(args.path);
    } catch (error) {
      return ToolResult.error(describeFileError(error, "path", relativePath), { kind: fileErrorKind(error) });
    }
    switch (file.kind) {
      case "missing":
        return ToolResult.error(`\`path\`: "${relativePath}" does not exist. Use list_dir or search to find the right path.`, { kind: "not-found" });
      case "directory":
        return ToolResult.error(`\`path\`: "${relativePath}" is a folder, not a file. Use list_dir to see what it contains.`);
      case "special":
        return ToolResult.error(specialFileError("path", relativePath));
      case "too-large":
        return ToolResult.error(
          `\`path\`: "${relativePath}" is ${formatBytes(file.size)}, more than the ${formatBytes(MAX_FILE_BYTES)} this tool reads. Use search to find the lines you need.`,
        );
    }
    const { bytes, stats } = file;

    const claimedImage = imageTypeOfName(args.path);
    const actualImage = claimedImage ? imageTypeOfBytes(bytes) : null;
    if (actualImage) {
      if (bytes.length > MAX_IMAGE_BYTES) {
        return ToolResult.error(
          `\`path\`: "${relativePath}" is an image of ${formatBytes(bytes.length)}; images larger than ${formatBytes(MAX_IMAGE_BYTES)} cannot be sent to the model.`,
        );
      }
      ctx.fileState.set(args.path, snapshotOf(bytes, stats));
      return ToolResult.withImages(
        `Image ${relativePath} (${actualImage}, ${formatBytes(bytes.length)}).`,
        [{ mediaType: actualImage, data: bytes.toString("base64") }],
        { path: relativePath, mediaType: actualImage, size: bytes.length },
      );
    }
    if (looksBinary(bytes)) {
      const why = claimedImage
        ? `has an image name but is not a PNG, JPEG, GIF or WebP image`
        : `is a binary file (${formatBytes(bytes.length)}), not text`;
      return ToolResult.error(`\`path\`: "${relativePath}" ${why}; read_file only reads text files and images.`);
    }

    ctx.fileState.set(args.path, snapshotOf(bytes, stats));
    const lines = splitLines(decodeText(bytes));
    if (lines.length === 0) return ToolResult.ok(`(${relativePath} is empty)`, { path: relativePath, totalLines: 0 });

    const first = args.offset ?? 1;
    if (first > lines.length) {
      return ToolResult.error(
        `\`offset\`: "${relativePath}" has ${lines.length} line${lines.length === 1 ? "" : "s"}; give an offset from 1 to ${lines.length}.`,
      );
    }
    const wanted = Math.min(args.limit ?? DEFAULT_LINE_LIMIT, lines.length - first + 1);
    const width = String(first + wanted - 1).length;
    const shown: string[] = [];
    // Leave room for the note that says how to read on.
    let budget = MAX_RESULT_CHARACTERS - 300;
    let cutLines = 0;
    for (let index = first - 1; index < first - 1 + wanted; index++) {
      let line = lines[index] ?? "";
      if (line.length > MAX_LINE_CHARACTERS) {
        line = `${line.slice(0, MAX_LINE_CHARACTERS)}… [line cut: ${line.length} characters]`;
        cutLines++;
      }
      const formatted = args.lineNumbers ? `${String(index + 1).padStart(width)}\t${line}` : line;
      if (formatted.length + 1 > budget && shown.length > 0) break;
      budget -= formatted.length + 1;
      shown.push(formatted);
    }
    const last = first + shown.length - 1;
    const notes: string[] = [];
    if (first !== 1 || last !== lines.length) {
      const more = last < lines.length ? ` To read further, call read_file with offset=${last + 1}.` : "";
      notes.push(`[Lines ${first}–${last} of ${lines.length} in ${relativePath}.${more}]`);
    }
    if (cutLines > 0) notes.push(`[${cutLines} line${cutLines === 1 ? " was" : "s were"} longer than ${MAX_LINE_CHARACTERS} characters and cut; use search to find text in them.]`);
    const text = shown.join("\n") + (notes.length > 0 ? `\n\n${notes.join("\n")}` : "");
    return ToolResult.ok(truncateMiddle(text), { path: relativePath, startLine: first, endLine: last, totalLines: lines.length });
  }
}
