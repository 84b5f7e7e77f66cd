import type { ApiIssue } from "@/lib/client/api";

/** The rows the studio refused, each as it named it ("line 3: who is required"), under a line saying nothing was made. */
export function RowProblems({ message, issues }: { message: string; issues: ApiIssue[] }) {
  return (
    <div role="alert" className="rounded-lg border border-caution/40 bg-caution-soft px-4 py-3 text-sm">
      <p className="font-medium text-caution">{message}</p>
      <ul className="mt-2 max-h-60 list-disc space-y-0.5 overflow-y-auto pl-5 text-foreground">
        {issues.map((issue, index) => (
          <li key={`${issue.path}-${index}`} className="wrap-anywhere">
            {issue.message}
          </li>
        ))}
      </ul>
    </div>
  );
}
