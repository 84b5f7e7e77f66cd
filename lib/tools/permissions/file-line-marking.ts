import type { VisibleTextOptions } from "./visible-text";

/** How lines of a file are marked: tabs and deep indentation are normal in files, so only longer blank runs are counted. */
export const FILE_LINE_MARKING: VisibleTextOptions = { keepTabs: true, blankRun: 40 };
