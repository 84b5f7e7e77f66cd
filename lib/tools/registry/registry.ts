import { TOOL_ORIGINS, TOOL_RUNTIMES, type Tool, type ToolOrigin, type ToolRuntime } from "../tool";
import { CAPABILITY_TAGS, isCapability, type Capability } from "./capabilities";

/** What the registry knows of a tool: its tags, and each operation's. */
export interface ToolManifest {
  name: string;
  title: string;
  /** The tool's own tags plus every operation's. */
  tags: string[];
  /** True only when every operation is read-only. */
  readOnly: boolean;
  runtime: ToolRuntime;
  origin: ToolOrigin;
  verified: boolean;
  operations: { name: string; title: string; tags: string[]; readOnly: boolean }[];
}

/** A mistake in a tool's declaration, found by {@link ToolRegistry.problems}. */
export interface ManifestProblem {
  tool: string;
  problem: string;
}

export interface RegistryReport {
  tools: number;
  byOrigin: Record<ToolOrigin, number>;
  /** Tools that declare no capability: never a match for a need. */
  untagged: string[];
  /** Capability tags no tool provides. */
  unsatisfied: Capability[];
}

export function toolManifest(tool: Tool): ToolManifest {
  const operations = Object.entries(tool.operations ?? {}).map(([name, operation]) => ({
    name,
    title: operation.title,
    tags: [...operation.capabilities],
    readOnly: operation.readOnly,
  }));
  const tags = [...new Set([...tool.capabilities, ...operations.flatMap((operation) => operation.tags)])];
  return {
    name: tool.name,
    title: tool.title,
    tags,
    readOnly: tool.isReadOnly(),
    runtime: tool.runtime,
    origin: tool.origin,
    verified: tool.verified,
    operations,
  };
}

const ORIGIN_RANK: Record<ToolOrigin, number> = { core: 0, authored: 1, imported: 2, mcp: 3 };

/**
 * How a need finds a tool. A caller asks for a capability tag, never for a
 * tool; untagged tools are never a match.
 *
 * @example
 *   const registry = new ToolRegistry(allTools());
 *   registry.providersOf("file.write")[0]?.name   // "write_file"
 *   registry.operationsFor("db.query")             // [{ tool: "sql", operation: "query" }]
 */
export class ToolRegistry {
  private readonly manifests: ToolManifest[];

  constructor(private readonly tools: readonly Tool[]) {
    this.manifests = tools.map(toolManifest);
  }

  all(): ToolManifest[] {
    return [...this.manifests];
  }

  /**
   * Manifests covering `tag`, ranked verified first, then by origin (core,
   * authored, imported, mcp), then by name. With `reachesLocalhost: true`,
   * hosted tools (which cannot see this machine) are left out.
   */
  providersOf(tag: string, options: { reachesLocalhost?: boolean } = {}): ToolManifest[] {
    return this.manifests
      .filter((manifest) => manifest.tags.includes(tag))
      .filter((manifest) => !options.reachesLocalhost || manifest.runtime !== "hosted")
      .sort(
        (left, right) =>
          Number(right.verified) - Number(left.verified) ||
          ORIGIN_RANK[left.origin] - ORIGIN_RANK[right.origin] ||
          left.name.localeCompare(right.name),
      );
  }

  /** Which operation of which tool to call for `tag`; `operation` is null for tools without operations. */
  operationsFor(tag: string, options: { reachesLocalhost?: boolean } = {}): { tool: string; operation: string | null }[] {
    return this.providersOf(tag, options).flatMap((manifest): { tool: string; operation: string | null }[] => {
      if (manifest.operations.length === 0) return [{ tool: manifest.name, operation: null }];
      const matching = manifest.operations.filter((operation) => operation.tags.includes(tag));
      return matching.length > 0
        ? matching.map((operation) => ({ tool: manifest.name, operation: operation.name }))
        : [{ tool: manifest.name, operation: null }];
    });
  }

  /** Declaration mistakes: unknown tags, origins or runtimes; operation tags the tool does not claim; secrets without help. */
  problems(): ManifestProblem[] {
    const problems: ManifestProblem[] = [];
    for (const tool of this.tools) {
      const report = (problem: string) => problems.push({ tool: tool.name, problem });
      for (const tag of tool.capabilities) if (!isCapability(tag)) report(`unknown capability "${tag}"`);
      if (!TOOL_ORIGINS.includes(tool.origin)) report(`unknown origin "${tool.origin}"`);
      if (!TOOL_RUNTIMES.includes(tool.runtime)) report(`unknown runtime "${tool.runtime}"`);
      for (const [name, operation] of Object.entries(tool.operations ?? {})) {
        for (const tag of operation.capabilities) {
          if (!isCapability(tag)) report(`operation "${name}" declares unknown capability "${tag}"`);
          else if (!tool.capabilities.includes(tag)) report(`operation "${name}" declares "${tag}", which the tool itself does not claim`);
        }
      }
      if (tool.secretInputs.length > 0 && tool.credentialHelp.trim() === "") {
        report(`declares secret inputs (${tool.secretInputs.join(", ")}) without credential help`);
      }
      if ((tool.rootSetting === null) !== (tool.pathInputs.length === 0)) {
        report("declares rootSetting and pathInputs apart; they are meaningless without each other");
      }
      if (tool.title.trim() === "" || tool.title === tool.name) report("has no display title distinct from its name");
    }
    return problems;
  }

  report(): RegistryReport {
    const byOrigin: Record<ToolOrigin, number> = { core: 0, authored: 0, imported: 0, mcp: 0 };
    for (const manifest of this.manifests) byOrigin[manifest.origin] += 1;
    const provided = new Set(this.manifests.flatMap((manifest) => manifest.tags));
    return {
      tools: this.manifests.length,
      byOrigin,
      untagged: this.manifests.filter((manifest) => manifest.tags.length === 0).map((manifest) => manifest.name),
      unsatisfied: CAPABILITY_TAGS.filter((tag) => !provided.has(tag)),
    };
  }
}
