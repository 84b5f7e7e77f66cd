/**
 * The closed vocabulary a tool declares itself against. A need resolves
 * against these tags (`file.write` -> `write_file`), never against words a
 * description happens to share.
 */
export const CAPABILITIES = {
  "file.read": "Read the contents of a file under the step's folder.",
  "file.write": "Create or overwrite a file under the step's folder.",
  "file.edit": "Change part of an existing file in place.",
  "file.list": "List the entries of a folder.",
  "file.search": "Find text or file names across a folder tree.",
  "data.inspect": "Describe a data file: its columns, types, first rows and row count.",
  "db.connect": "Open and check a connection to a database.",
  "db.schema": "List a database's tables and describe their columns.",
  "db.query": "Run a read-only query against a database and return rows.",
  "web.request": "Send an HTTP request and read the response.",
  "web.browse": "Open a web page in a real browser and read what it shows.",
  "web.search": "Search the web and return result titles, links and snippets.",
  "system.shell": "Run a command in a shell on this machine.",
  "chart.render": "Draw a chart from data as an image.",
  "pdf.render": "Produce a PDF document.",
  "message.send": "Send a message to a person or channel (email, chat).",
  "inbox.read": "Read incoming messages from a mailbox or channel.",
} as const satisfies Record<string, string>;

/** One tag of the closed capability vocabulary. */
export type Capability = keyof typeof CAPABILITIES;

export const CAPABILITY_TAGS = Object.keys(CAPABILITIES) as Capability[];

export function isCapability(tag: string): tag is Capability {
  return Object.hasOwn(CAPABILITIES, tag);
}
