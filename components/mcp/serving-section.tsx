"use client";

import { useState, useSyncExternalStore } from "react";
import { Button } from "@/components/ui/button";
import { ErrorNotice } from "@/components/ui/page-header";
import { api } from "@/lib/client/api";

const subscribeToNothing = () => () => undefined;
const browserOrigin = () => window.location.origin;

/** Where MCP clients reach this studio's workflows, and the token they need. */
export function ServingSection({ initialToken }: { initialToken: string }) {
  const [token, setToken] = useState(initialToken);
  const [shown, setShown] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The server renders the path and the browser adds its origin after hydration, so both render the same first (no React #418).
  const origin = useSyncExternalStore(subscribeToNothing, browserOrigin, () => "");
  const endpoint = `${origin}/api/mcp`;

  const regenerate = async () => {
    if (!window.confirm("Make a new token? Clients using the current one stop working until they get the new one.")) return;
    setBusy(true);
    setError(null);
    try {
      setToken((await api<{ token: string }>("/api/mcp-token", { method: "POST" })).token);
      setShown(true);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="serving-title" className="mt-10 rounded-xl border border-line bg-surface p-5 shadow-card">
      <h2 id="serving-title" className="text-base font-semibold">
        Serving workflows over MCP
      </h2>
      <p className="mt-1 text-sm text-muted">
        Every saved workflow is offered as a tool to MCP clients over streamable HTTP. A call starts a run and answers with its output; approvals
        still wait in the inbox.
      </p>
      <dl className="mt-4 grid gap-3 text-sm sm:grid-cols-[8rem_1fr]">
        <dt className="font-medium">URL</dt>
        <dd>
          <code className="break-all font-mono">{endpoint}</code>
        </dd>
        <dt className="font-medium">Token</dt>
        <dd className="flex flex-wrap items-center gap-2">
          <code className="break-all font-mono" aria-label={shown ? "MCP token" : "MCP token, hidden"}>
            {shown ? token : "•".repeat(24)}
          </code>
          <Button size="sm" onClick={() => setShown((value) => !value)}>
            {shown ? "Hide" : "Show"}
          </Button>
          <Button size="sm" onClick={() => void navigator.clipboard?.writeText(token)}>
            Copy
          </Button>
          <Button size="sm" variant="danger" onClick={() => void regenerate()} disabled={busy}>
            {busy ? "Regenerating…" : "Regenerate"}
          </Button>
        </dd>
      </dl>
      <p className="mt-3 text-xs text-muted">
        Clients send it as <code className="font-mono">Authorization: Bearer &lt;token&gt;</code>.
      </p>
      {error ? (
        <div className="mt-3">
          <ErrorNotice title="The token was not regenerated">{error}</ErrorNotice>
        </div>
      ) : null}
    </section>
  );
}
