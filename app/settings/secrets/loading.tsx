import { Spinner } from "@/components/ui/page-header";

export default function SecretsLoading() {
  return (
    <div aria-busy="true">
      <div className="mb-8">
        <h1 className="text-2xl font-semibold tracking-tight">Secrets</h1>
        <p className="mt-1 text-sm text-muted">Passwords, API keys and connection URLs for your tools.</p>
      </div>
      <div className="rounded-xl border border-line bg-surface px-5 py-4 shadow-card">
        <Spinner label="Loading secrets" />
      </div>
    </div>
  );
}
