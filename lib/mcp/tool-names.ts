/** A name model APIs accept for a function: letters, digits, _ and -, at most 64 characters. */
const MAX_NAME_LENGTH = 64;

/** `read.file/v2` -> `read_file_v2`: model APIs accept only letters, digits, _ and -. */
export function sanitizeToolName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, MAX_NAME_LENGTH);
  return cleaned === "" ? "tool" : cleaned;
}

/** The tools one server offers, in the order it listed them, and the names given to its tools before. */
export interface ServerToolNames {
  server: string;
  prefix: string | null;
  tools: readonly string[];
  /** Names given earlier (the server's name for a tool -> ours), kept as they are: a name once given does not change. */
  given?: Readonly<Record<string, string>>;
}

/**
 * Studio-side names for every server's tools. Names given before stay: each
 * server keeps what it was given (unless a built-in has since taken it). A
 * tool without one keeps its own name when free, else becomes
 * `<prefix>__<tool>`, else `<server>__<tool>`, else that with `_2`, `_3`, ...
 * Servers are taken in the order given (the manager gives them oldest first),
 * so a server added later never takes a name an earlier one holds, and
 * removing a server renames nobody else's tools. `heldElsewhere`: names held
 * by servers not listed (disabled, or waiting for their command to be
 * confirmed), which no tool here may take.
 *
 * @example
 *   resolveToolNames(["read_file"], [{ server: "files", prefix: null, tools: ["read_file", "tree"] }])
 *   // Map { "files" => Map { "read_file" => "files__read_file", "tree" => "tree" } }
 */
export function resolveToolNames(
  builtIns: Iterable<string>,
  servers: readonly ServerToolNames[],
  heldElsewhere: Iterable<string> = [],
): Map<string, Map<string, string>> {
  const taken = new Set(builtIns);
  const result = new Map<string, Map<string, string>>(servers.map(({ server }) => [server, new Map<string, string>()]));
  // First what was given before, so a new tool can never take a name a tool already holds.
  for (const { server, given } of servers) {
    for (const [tool, name] of Object.entries(given ?? {})) {
      if (taken.has(name)) continue;
      taken.add(name);
      result.get(server)!.set(tool, name);
    }
  }
  for (const name of heldElsewhere) taken.add(name);
  for (const { server, prefix, tools } of servers) {
    const names = result.get(server)!;
    for (const tool of tools) {
      if (names.has(tool)) continue;
      const base = sanitizeToolName(tool);
      const candidates = [base, ...(prefix ? [`${prefix}__${base}`] : []), `${server}__${base}`].map((name) => name.slice(0, MAX_NAME_LENGTH));
      let chosen = candidates.find((name) => !taken.has(name));
      const fallback = candidates[candidates.length - 1]!;
      for (let suffix = 2; chosen === undefined; suffix += 1) {
        const ending = `_${suffix}`;
        const name = `${fallback.slice(0, MAX_NAME_LENGTH - ending.length)}${ending}`;
        if (!taken.has(name)) chosen = name;
      }
      taken.add(chosen);
      names.set(tool, chosen);
    }
  }
  return result;
}
