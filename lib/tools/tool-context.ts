import { lookup } from "node:dns/promises";
import { AutoApproveIOHandler, type IOHandler } from "./io-handler";
import { defaultGuardrails, type Guardrails, type PermissionMode } from "./permissions/guardrails";
import { NO_SECRETS, type SecretResolver } from "./secrets";

/** Something a running tool reports while it works; hosts persist and stream these. */
export type ToolEvent =
  | { type: "tool-progress"; tool: string; message: string }
  | { type: "tool-output"; tool: string; text: string }
  | { type: "todo-update"; tool: string; items: readonly { content: string; status: string }[] };

export interface ToolEventSink {
  emit(event: ToolEvent): void;
}

/** What "Always allow" added: writes under `pattern` (relative to `root`) no longer ask. */
export interface WriteGrant {
  root: string;
  pattern: string;
}

/** The mode and guardrails a call is judged against, and where grants go. */
export interface PermissionState {
  mode: PermissionMode;
  guardrails: Guardrails;
  /** In `plan` mode, set once a person approved the plan. */
  planApproved: boolean;
  /** Grants made during this run (and loaded from earlier runs by the host). */
  grants: WriteGrant[];
  /** Persists a grant beyond this run; the studio stores it in its database. */
  persistGrant?: (grant: WriteGrant) => Promise<void>;
}

/** What a tool last saw of a file, so an edit can refuse a file that changed since. */
export interface FileSnapshot {
  mtimeMs: number;
  size: number;
  hash: string;
}

/**
 * Passed to `call()`: where the tool works, whom it asks, its settings, and
 * the run state it may need.
 */
export interface ToolContext<Settings = Record<string, unknown>> {
  /** The working directory for tools without a root setting. */
  cwd: string;
  io: IOHandler;
  /** The tool's settings, validated against its settings model. */
  settings: Settings;
  /** For tools with a root setting: the real, absolute root folder of this call. */
  root?: string;
  /**
   * The call's declared path inputs after confinement: absolute path ->
   * path relative to `root`, each already checked against the guardrails'
   * path rules. The gate reads it instead of checking and relativising again.
   */
  confinedPaths?: ReadonlyMap<string, string>;
  /** Aborted when the run is cancelled or the call times out. */
  signal: AbortSignal;
  events: ToolEventSink;
  permissions: PermissionState;
  /** Resolves `${NAME}` references in secret inputs. */
  secrets: SecretResolver;
  /** Per-run record of files read, keyed by absolute path. */
  fileState: Map<string, FileSnapshot>;
  /** Host-specific state (agent todo lists, job tables, ...). */
  extra: Record<string, unknown>;
  /**
   * The addresses a host name leads to, for the outbound-address guardrail
   * (lib/tools/net/outbound.ts): a request connects only to what was checked.
   * Tests inject one; the default asks the system resolver.
   */
  resolveHost: HostResolver;
}

export type HostResolver = (host: string) => Promise<string[]>;

const systemResolver: HostResolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

export interface ToolContextOptions extends Partial<Omit<ToolContext, "permissions">> {
  io: IOHandler;
  permissions?: Partial<PermissionState>;
}

const SILENT_SINK: ToolEventSink = { emit: () => undefined };

/**
 * Builds a context with safe defaults: `default` mode, default guardrails, no
 * secrets, no events. The IOHandler is required so nobody auto-approves by accident.
 *
 * @example
 *   const ctx = createToolContext({ io: new AutoApproveIOHandler(), settings: { root: "/srv/reports" } });
 */
export function createToolContext(options: ToolContextOptions): ToolContext {
  const { permissions, ...rest } = options;
  return {
    cwd: process.cwd(),
    settings: {},
    signal: new AbortController().signal,
    events: SILENT_SINK,
    secrets: NO_SECRETS,
    fileState: new Map(),
    extra: {},
    resolveHost: systemResolver,
    ...rest,
    permissions: {
      mode: "default",
      guardrails: defaultGuardrails(),
      planApproved: false,
      grants: [],
      ...permissions,
    },
  };
}

/** A context for trusted scripts: bypass mode and the auto-approving handler. */
export function createScriptContext(options: Partial<ToolContextOptions> = {}): ToolContext {
  return createToolContext({
    io: new AutoApproveIOHandler(),
    ...options,
    permissions: { mode: "bypass", ...options.permissions },
  });
}
