import { CAPABILITIES, type Capability } from "@/lib/tools/contracts";

/**
 * Everyday words that mean a capability although neither its tag nor its
 * one-line meaning uses them ("save a file" is file.write). The tag and the
 * meaning in lib/tools/registry/capabilities.ts are searched as well; this
 * table only adds what they lack.
 */
export const CAPABILITY_SYNONYMS: Readonly<Record<string, readonly Capability[]>> = {
  save: ["file.write"],
  store: ["file.write"],
  create: ["file.write"],
  overwrite: ["file.write"],
  modify: ["file.edit"],
  change: ["file.edit"],
  replace: ["file.edit"],
  patch: ["file.edit"],
  update: ["file.edit"],
  open: ["file.read", "web.browse"],
  view: ["file.read"],
  load: ["file.read"],
  ls: ["file.list"],
  directory: ["file.list"],
  dir: ["file.list"],
  grep: ["file.search"],
  find: ["file.search", "web.search"],
  look: ["file.search", "web.search"],
  csv: ["data.inspect"],
  json: ["data.inspect"],
  spreadsheet: ["data.inspect"],
  dataset: ["data.inspect"],
  column: ["data.inspect", "db.schema"],
  sql: ["db.query", "db.schema"],
  select: ["db.query"],
  postgres: ["db.connect", "db.schema", "db.query"],
  postgresql: ["db.connect", "db.schema", "db.query"],
  sqlite: ["db.connect", "db.schema", "db.query"],
  db: ["db.connect", "db.schema", "db.query"],
  table: ["db.schema", "data.inspect"],
  http: ["web.request"],
  api: ["web.request"],
  fetch: ["web.request", "web.browse"],
  download: ["web.request"],
  url: ["web.request", "web.browse"],
  get: ["web.request"],
  post: ["web.request"],
  website: ["web.browse"],
  site: ["web.browse"],
  scrape: ["web.browse"],
  internet: ["web.search", "web.request"],
  google: ["web.search"],
  bash: ["system.shell"],
  terminal: ["system.shell"],
  script: ["system.shell"],
  execute: ["system.shell"],
  run: ["system.shell"],
  plot: ["chart.render"],
  graph: ["chart.render"],
  visualise: ["chart.render"],
  visualize: ["chart.render"],
  report: ["pdf.render"],
  email: ["message.send", "inbox.read"],
  notify: ["message.send"],
  slack: ["message.send", "inbox.read"],
};

/** Words a query may contain that say nothing about what it wants. */
const STOP_WORDS = new Set([
  "a", "an", "the", "to", "of", "from", "in", "into", "on", "for", "and", "or", "with", "my", "some", "any", "this", "that",
  "it", "its", "i", "me", "want", "need", "can", "please", "new", "all", "by", "at", "as", "be", "is", "step", "steps",
]);

/** A word reduced to a rough stem, so "files" meets "file" and "writing" meets "write". */
export function stem(word: string): string {
  let result = word.toLowerCase();
  if (result.length > 5 && result.endsWith("ing")) result = result.slice(0, -3);
  else if (result.length > 4 && result.endsWith("es") && !result.endsWith("ses")) result = result.slice(0, -1);
  if (result.length > 3 && result.endsWith("s") && !result.endsWith("ss")) result = result.slice(0, -1);
  if (result.length > 3 && result.endsWith("e")) result = result.slice(0, -1);
  return result;
}

export function words(text: string): string[] {
  return text.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
}

/** The stems of a query's meaningful words. */
export function queryStems(query: string): string[] {
  return words(query).filter((word) => !STOP_WORDS.has(word)).map(stem);
}

const VOCABULARY: ReadonlyMap<Capability, ReadonlySet<string>> = (() => {
  const vocabulary = new Map<Capability, Set<string>>();
  for (const [tag, meaning] of Object.entries(CAPABILITIES) as [Capability, string][]) {
    vocabulary.set(tag, new Set([...words(tag), ...words(meaning)].filter((word) => !STOP_WORDS.has(word)).map(stem)));
  }
  for (const [word, tags] of Object.entries(CAPABILITY_SYNONYMS)) {
    for (const tag of tags) vocabulary.get(tag)!.add(stem(word));
  }
  return vocabulary;
})();

/**
 * The capability tags a search means: those whose tag, meaning or synonyms
 * cover every meaningful word of the query. "write a file" -> file.write;
 * "query postgres" -> db.query; "folder" alone -> every tag about folders.
 *
 * @example
 *   capabilitiesForQuery("write a file") // ["file.write"]
 */
export function capabilitiesForQuery(query: string): Capability[] {
  const stems = queryStems(query);
  if (stems.length === 0) return [];
  const matched: Capability[] = [];
  for (const [tag, vocabulary] of VOCABULARY) {
    if (stems.every((each) => vocabulary.has(each))) matched.push(tag);
  }
  return matched;
}
