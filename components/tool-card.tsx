import { AccessBadge, Badge } from "./badge";
import { DescriptionText } from "./description-text";
import type { CatalogTool } from "@/lib/contracts/catalog";
import { CAPABILITIES, isCapability } from "@/lib/tools/registry/capabilities";
import { ToolIcon } from "./tool-icon";

const RUNTIME_LABELS: Record<CatalogTool["runtime"], string | null> = {
  in_process: null,
  local_subprocess: "Runs in a subprocess",
  hosted: "Hosted",
};

/** One tool in the catalog: what it is called, what it does, and what it may touch. */
export function ToolCard({ tool }: { tool: CatalogTool }) {
  const headingId = `tool-${tool.name}`;
  const notes = [
    RUNTIME_LABELS[tool.runtime],
    tool.settingsSchema !== null ? "Has settings" : null,
    tool.secretInputs.length > 0 ? `Needs ${tool.secretInputs.length === 1 ? "a secret" : "secrets"}` : null,
  ].filter((note): note is string => note !== null);

  return (
    <article
      aria-labelledby={headingId}
      className="flex flex-col gap-4 rounded-xl border border-line bg-surface p-5 shadow-card transition-shadow hover:shadow-card-raised"
    >
      <header className="flex items-start gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-accent-soft text-accent">
          <ToolIcon icon={tool.icon} domain={tool.domain} className="size-5" />
        </span>
        <div className="min-w-0 flex-1">
          <h3 id={headingId} className="text-base font-semibold leading-6 text-foreground">
            {tool.title}
          </h3>
          <p className="truncate font-mono text-xs text-muted">
            <span className="sr-only">Identifier: </span>
            {tool.name}
          </p>
        </div>
        <AccessBadge readOnly={tool.flags.readOnly} />
      </header>

      <p className="text-sm leading-6 text-muted">
        <DescriptionText text={tool.description} />
      </p>

      {tool.operations.length > 0 && (
        <section aria-label={`${tool.title} operations`} className="rounded-lg border border-line bg-surface-sunken">
          <h4 className="border-b border-line px-3 py-2 text-xs font-semibold uppercase tracking-wide text-muted">
            Operations
          </h4>
          <ul className="divide-y divide-line">
            {tool.operations.map((operation) => (
              <li key={operation.name} className="flex items-center justify-between gap-3 px-3 py-2">
                <span className="min-w-0">
                  <span className="block text-sm font-medium text-foreground" title={operation.description}>
                    {operation.title}
                  </span>
                  <span className="block truncate font-mono text-[0.6875rem] text-muted">{operation.name}</span>
                </span>
                <span
                  className={`shrink-0 text-xs font-medium ${operation.readOnly ? "text-safe" : "text-caution"}`}
                >
                  {operation.readOnly ? "read-only" : "changes things"}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}

      {(tool.capabilities.length > 0 || notes.length > 0) && (
        <footer className="mt-auto flex flex-col gap-3 border-t border-line pt-4">
          {tool.capabilities.length > 0 && (
            <ul aria-label="Capabilities" className="flex flex-wrap gap-1.5">
              {tool.capabilities.map((capability) => (
                <li key={capability}>
                  <Badge mono title={isCapability(capability) ? CAPABILITIES[capability] : undefined}>
                    {capability}
                  </Badge>
                </li>
              ))}
            </ul>
          )}
          {notes.length > 0 && <p className="text-xs text-muted">{notes.join(" · ")}</p>}
        </footer>
      )}
    </article>
  );
}
