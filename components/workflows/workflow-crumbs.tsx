import Link from "next/link";

/**
 * Workflows / <workflow> / <section> [/ <here>]: the way back up from a workflow's pages (its activity, its
 * evaluations and an evaluation). With `here`, the section links to its own page.
 */
export function WorkflowCrumbs({ workflow, section, here }: { workflow: { id: string; name: string }; section: "activity" | "evaluations"; here?: string }) {
  const base = `/workflows/${encodeURIComponent(workflow.id)}`;
  return (
    <p className="text-sm text-muted">
      <Link href="/workflows" className="hover:text-foreground hover:underline">
        Workflows
      </Link>{" "}
      /{" "}
      <Link href={base} className="hover:text-foreground hover:underline">
        {workflow.name}
      </Link>{" "}
      /{" "}
      {here ? (
        <>
          <Link href={`${base}/${section}`} className="hover:text-foreground hover:underline">
            {section}
          </Link>{" "}
          / {here}
        </>
      ) : (
        section
      )}
    </p>
  );
}
