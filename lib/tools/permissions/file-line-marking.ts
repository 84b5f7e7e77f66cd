import type { VisibleTextOptions } from "./visible-text";

/**
 * How lines of a file (and other file-like text) are marked: tabs, deep
 * indentation and a few empty lines are normal in files, so only longer runs
 * of blanks and of empty lines are counted.
 */
export const FILE_LINE_MARKING: VisibleTextOptions = { keepTabs: true, blankRun: 40, lineBreakRun: 10 };
