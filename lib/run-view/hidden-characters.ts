import { type ApprovalPreview, type DiffLine, FILE_LINE_MARKING, markHiddenCharacters, type VisibleTextOptions } from "@/lib/tools/contracts";

/** What an approval holds that a person could not see unmarked: the card warns above its buttons. */
export interface HiddenCharacters {
  /** Direction-changing characters: what is read is not the order of what runs. */
  bidi: boolean;
  /** Anything marked at all (invisible, control, bidi, long blank runs). */
  hidden: boolean;
}

/** How an argument value is marked: multi-line text is file-like (tabs and indentation are normal). */
export function argumentMarking(value: string): VisibleTextOptions | undefined {
  return value.includes("\n") ? FILE_LINE_MARKING : undefined;
}

/**
 * Whether the approval's preview or arguments hold characters the card marks;
 * every string is judged with the same options it is rendered with.
 */
export function hiddenCharactersOf(effect: ApprovalPreview, args: Record<string, unknown>): HiddenCharacters {
  const found: HiddenCharacters = { bidi: false, hidden: false };
  const check = (text: string, options?: VisibleTextOptions) => {
    const marked = markHiddenCharacters(text, options);
    found.bidi ||= marked.hasBidi;
    found.hidden ||= marked.hasHidden;
  };
  for (const [text, options] of effectStrings(effect)) check(text, options);
  walkStrings(args, (text) => check(text, argumentMarking(text)));
  return found;
}

function effectStrings(effect: ApprovalPreview): [string, VisibleTextOptions | undefined][] {
  switch (effect.kind) {
    case "file-change": {
      const lines: DiffLine[] = effect.rows.flatMap((row) =>
        row.kind === "omitted" ? row.flagged : row.kind === "added" || row.kind === "removed" || row.kind === "context" ? [row] : [],
      );
      return [[effect.path, undefined], ...rootStrings(effect.root), ...lines.map((line): [string, VisibleTextOptions] => [line.text, FILE_LINE_MARKING])];
    }
    case "file-replace":
      return [[effect.path, undefined], ...rootStrings(effect.root)];
    case "command":
      return [
        [effect.command, undefined],
        [effect.workingFolder, undefined],
        ...rootStrings(effect.folder),
      ];
    case "request":
      return [[effect.url, undefined], ...effect.headers.flatMap((header): [string, undefined][] => [[header.name, undefined], [header.value, undefined]]), ...(effect.body === null ? [] : [[effect.body, argumentMarking(effect.body)] as [string, VisibleTextOptions | undefined]])];
    case "tool-call":
      return [[effect.tool, undefined], [effect.argumentsText, FILE_LINE_MARKING]];
    case "text":
      return [[effect.text, FILE_LINE_MARKING]];
  }
}

function rootStrings(folder: string | undefined): [string, undefined][] {
  return folder === undefined ? [] : [[folder, undefined]];
}

function walkStrings(value: unknown, visit: (text: string) => void): void {
  if (typeof value === "string") visit(value);
  else if (Array.isArray(value)) for (const item of value) walkStrings(item, visit);
  else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      visit(key);
      walkStrings(item, visit);
    }
  }
}
