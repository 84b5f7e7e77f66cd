import type { DomainGroup } from "./tool-catalog";
import { ToolCard } from "./tool-card";
import { ToolIcon } from "./tool-icon";

/** One palette group: a heading with the domain's icon, then its tools as cards. */
export function DomainSection({ group }: { group: DomainGroup }) {
  const headingId = `domain-${group.domain}`;
  return (
    <section aria-labelledby={headingId} className="scroll-mt-20">
      <div className="mb-4 flex items-center gap-3">
        <span className="flex size-8 items-center justify-center rounded-lg border border-line bg-surface text-foreground shadow-card">
          <ToolIcon domain={group.domain} className="size-4" />
        </span>
        <div>
          <div className="flex items-baseline gap-2">
            <h2 id={headingId} className="text-lg font-semibold tracking-tight text-foreground">
              {group.title}
            </h2>
            <span className="text-sm text-muted">
              {group.tools.length} {group.tools.length === 1 ? "tool" : "tools"}
            </span>
          </div>
          {group.description && <p className="text-sm text-muted">{group.description}</p>}
        </div>
      </div>
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        {group.tools.map((tool) => (
          <ToolCard key={tool.name} tool={tool} />
        ))}
      </div>
    </section>
  );
}
