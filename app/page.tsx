import type { Metadata } from "next";
import { DomainSection } from "@/components/domain-section";
import { groupToolsByDomain } from "@/components/tool-catalog";
import { ToolIcon } from "@/components/tool-icon";
import { catalogEntry } from "@/lib/server/tool-catalog";
import { allTools } from "@/lib/tools";

// The catalog is fixed at build time, but the layout around it shows who is signed in, so it renders per request.
export const dynamic = "force-dynamic";

// The root layout's title template reaches the pages below it, not this one beside it: the studio's name is spelled out.
export const metadata: Metadata = { title: { absolute: "Tools · Neurosurfer Studio" } };

export default function ToolsPage() {
  const groups = groupToolsByDomain(allTools().map(catalogEntry));
  const toolCount = groups.reduce((sum, group) => sum + group.tools.length, 0);
  const readOnlyCount = groups.reduce((sum, group) => sum + group.tools.filter((tool) => tool.flags.readOnly).length, 0);

  return (
    <div className="flex flex-col gap-10">
      <div className="flex flex-col gap-6">
        <div className="max-w-2xl">
          <h1 className="text-3xl font-semibold tracking-tight text-foreground">Tools</h1>
          <p className="mt-2 text-base leading-7 text-muted">
            The built-in actions an agent can take in a workflow. Read-only tools run freely; tools that change
            things ask for permission first.
          </p>
        </div>

        {toolCount > 0 && (
          <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
            <p className="text-sm text-muted">
              <strong className="font-semibold text-foreground">{toolCount}</strong> {toolCount === 1 ? "tool" : "tools"}{" "}
              in <strong className="font-semibold text-foreground">{groups.length}</strong>{" "}
              {groups.length === 1 ? "group" : "groups"} ·{" "}
              <strong className="font-semibold text-foreground">{readOnlyCount}</strong> read-only
            </p>
            <nav aria-label="Tool groups">
              <ul className="flex flex-wrap gap-2">
                {groups.map((group) => (
                  <li key={group.domain}>
                    <a
                      href={`#domain-${group.domain}`}
                      className="inline-flex items-center gap-1.5 rounded-full border border-line bg-surface px-3 py-1 text-sm text-muted shadow-card transition-colors hover:border-line-strong hover:text-foreground"
                    >
                      <ToolIcon domain={group.domain} className="size-3.5" />
                      {group.title}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
          </div>
        )}
      </div>

      {toolCount === 0 ? (
        <p className="rounded-xl border border-dashed border-line-strong bg-surface p-10 text-center text-muted">
          No built-in tools are registered yet.
        </p>
      ) : (
        groups.map((group) => <DomainSection key={group.domain} group={group} />)
      )}
    </div>
  );
}
