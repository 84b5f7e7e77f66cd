import { Spinner } from "@/components/ui/page-header";

/** While the list loads: the page's frame at once, so nothing jumps when it arrives. */
export default function WorkflowsLoading() {
  return (
    <div aria-busy="true">
      <div className="mb-8">
        <h1 className="text-2xl font-semibold tracking-tight">Workflows</h1>
        <p className="mt-1 text-sm text-muted">Chains of tools that run on this machine.</p>
      </div>
      <div className="rounded-xl border border-line bg-surface shadow-card">
        <div className="border-b border-line px-5 py-3">
          <Spinner label="Loading workflows" />
        </div>
        <ul aria-hidden="true" className="divide-y divide-line">
          {[0, 1, 2].map((row) => (
            <li key={row} className="flex items-center gap-6 px-5 py-4">
              <div className="flex-1 space-y-2">
                <div className="h-3.5 w-48 animate-pulse rounded bg-surface-sunken" />
                <div className="h-3 w-72 max-w-full animate-pulse rounded bg-surface-sunken" />
              </div>
              <div className="h-5 w-20 animate-pulse rounded-full bg-surface-sunken" />
              <div className="hidden h-3 w-24 animate-pulse rounded bg-surface-sunken sm:block" />
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
