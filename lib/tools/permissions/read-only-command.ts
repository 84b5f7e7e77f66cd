const READ_ONLY_PROGRAMS = new Set([
  "ls", "cat", "head", "tail", "wc", "grep", "egrep", "rg", "find", "pwd", "echo", "stat", "du", "df",
  "file", "tree", "sort", "uniq", "cut", "tr", "diff", "cmp", "md5sum", "sha256sum", "date", "whoami",
  "uname", "env", "printenv", "which", "basename", "dirname", "realpath", "jq", "sed", "awk", "git",
]);
const READ_ONLY_GIT = new Set(["status", "log", "diff", "show", "branch", "rev-parse", "ls-files", "blame"]);
const FIND_ACTIONS_THAT_WRITE = /\s-(delete|exec|execdir|ok|okdir|fprint|fprint0|fprintf|fls)\b/;

/**
 * Whether a shell command only reads, for `shellPolicy: "readonly"`. Errs on
 * the side of "no": redirections, substitutions and unknown programs are writes.
 */
export function isReadOnlyCommand(command: string): boolean {
  if (/[>`]|\$\(|<\(|\n/.test(command)) return false;
  const segments = command.split(/&&|\|\||[;|&]/).map((segment) => segment.trim());
  return segments.every((segment) => segment !== "" && isReadOnlySegment(segment));
}

function isReadOnlySegment(segment: string): boolean {
  const words = segment.split(/\s+/);
  const program = words[0] ?? "";
  if (!READ_ONLY_PROGRAMS.has(program)) return false;
  if (program === "git") return READ_ONLY_GIT.has(words[1] ?? "");
  if (program === "find") return !FIND_ACTIONS_THAT_WRITE.test(` ${segment}`);
  if (program === "sed") return !words.some((word) => word.startsWith("-i") || word === "--in-place");
  if (program === "awk") return !segment.includes("system(");
  if (program === "env" || program === "printenv") return words.length <= 2;
  return true;
}
