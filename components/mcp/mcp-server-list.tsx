"use client";

import { useCallback, useEffect, useState } from "react";
import { ToolIcon } from "@/components/tool-icon";
import { Button } from "@/components/ui/button";
import { EmptyState, ErrorNotice, PageHeader, Spinner } from "@/components/ui/page-header";
import { api } from "@/lib/client/api";
import type { McpServerView } from "@/lib/contracts/mcp-server";
import { stdioCommandText, type McpServerConfigInput } from "@/lib/validations/mcp-server";
import { ConfirmCommandDialog } from "./confirm-command-dialog";
import { McpServerDialog } from "./mcp-server-dialog";
import { ServingSection } from "./serving-section";

const STATE_LOOK: Record<McpServerView["state"], { label: string; className: string }> = {
  connected: { label: "connected", className: "bg-safe-soft text-safe border-transparent" },
  connecting: { label: "connecting", className: "bg-accent-soft text-accent border-transparent" },
  failed: { label: "failed", className: "bg-caution text-white border-transparent dark:text-background" },
  disabled: { label: "disabled", className: "bg-surface-sunken text-muted border-line" },
  unconfirmed: { label: "waiting for confirmation", className: "bg-caution-soft text-caution border-transparent" },
};

/** The servers page: every MCP server with its state, its error in words and its tools; add, edit, enable, disable, remove. */
export function McpServerList({ initialServers, initialToken }: { initialServers: McpServerView[]; initialToken: string }) {
  const [servers, setServers] = useState(initialServers);
  const [editing, setEditing] = useState<McpServerView | "new" | null>(null);
  const [confirming, setConfirming] = useState<McpServerView | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(async () => {
    setServers((await api<{ servers: McpServerView[] }>("/api/mcp-servers")).servers);
  }, []);

  // A server still connecting settles within its connect timeout; look again until it has.
  const anyConnecting = servers.some((server) => server.state === "connecting");
  useEffect(() => {
    if (!anyConnecting) return;
    const timer = setInterval(() => void reload().catch(() => undefined), 2_000);
    return () => clearInterval(timer);
  }, [anyConnecting, reload]);

  const act = async (server: McpServerView, what: string, action: () => Promise<void>) => {
    setBusy(`${server.id}:${what}`);
    setError(null);
    try {
      await action();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setBusy(null);
    }
  };

  const replace = (updated: McpServerView) => setServers((list) => list.map((each) => (each.id === updated.id ? updated : each)));

  const toggle = (server: McpServerView) =>
    act(server, "toggle", async () => {
      const { id: _id, createdAt: _created, updatedAt: _updated, state: _state, error: _error, tools: _tools, commandConfirmation: _confirmation, ...config } = server;
      const body: McpServerConfigInput = { ...config, enabled: !server.enabled };
      replace((await api<{ server: McpServerView }>(`/api/mcp-servers/${server.id}`, { method: "PUT", body })).server);
    });

  const test = (server: McpServerView) =>
    act(server, "test", async () => {
      const tested = (await api<{ server: McpServerView }>(`/api/mcp-servers/${server.id}/test`, { method: "POST" })).server;
      replace(tested);
    });

  const remove = (server: McpServerView) =>
    act(server, "remove", async () => {
      if (!window.confirm(`Remove the MCP server ${server.name}? Workflows using its tools will no longer validate.`)) return;
      await api(`/api/mcp-servers/${server.id}`, { method: "DELETE" });
      setServers((list) => list.filter((each) => each.id !== server.id));
    });

  return (
    <>
      <PageHeader
        title="MCP servers"
        description="Tools from Model Context Protocol servers. Write ${NAME} in an environment value or a header to use a stored secret."
        actions={
          <Button variant="primary" onClick={() => setEditing("new")}>
            Add server
          </Button>
        }
      />
      {error ? (
        <div className="mb-4">
          <ErrorNotice title="That did not work">{error}</ErrorNotice>
        </div>
      ) : null}
      {servers.length === 0 ? (
        <EmptyState title="No MCP servers yet" action={<Button onClick={() => setEditing("new")}>Add server</Button>}>
          Add a server started on this machine (for example npx -y @modelcontextprotocol/server-filesystem /some/folder) or one reached over HTTP.
        </EmptyState>
      ) : (
        <ul className="space-y-4">
          {servers.map((server) => (
            <li key={server.id} className="rounded-xl border border-line bg-surface p-5 shadow-card">
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div className="min-w-0">
                  <h2 className="flex items-center gap-2 text-base font-semibold">
                    <ToolIcon icon="mcp" className="size-4" />
                    {server.name}
                    <span className={`inline-flex items-center rounded-full border px-2 py-0.5 text-xs font-medium ${STATE_LOOK[server.state].className}`}>
                      {STATE_LOOK[server.state].label}
                    </span>
                  </h2>
                  <p className="mt-1 break-all font-mono text-xs text-muted">
                    {server.transport === "stdio" ? [server.command, ...server.args].join(" ") : server.url}
                  </p>
                </div>
                <div className="flex flex-wrap gap-2">
                  {server.state === "unconfirmed" ? (
                    <Button size="sm" variant="primary" onClick={() => setConfirming(server)} disabled={busy !== null}>
                      Review and start
                    </Button>
                  ) : null}
                  <Button size="sm" onClick={() => void test(server)} disabled={busy !== null || server.state === "unconfirmed"}>
                    {busy === `${server.id}:test` ? "Testing…" : "Test"}
                  </Button>
                  <Button size="sm" onClick={() => setEditing(server)} disabled={busy !== null}>
                    Edit
                  </Button>
                  <Button size="sm" onClick={() => void toggle(server)} disabled={busy !== null}>
                    {server.enabled ? "Disable" : "Enable"}
                  </Button>
                  <Button size="sm" variant="ghost" onClick={() => void remove(server)} disabled={busy !== null}>
                    Remove
                  </Button>
                </div>
              </div>
              {server.state === "connecting" ? (
                <div className="mt-3">
                  <Spinner label="Connecting" />
                </div>
              ) : null}
              {server.error ? (
                <div className="mt-3">
                  <ErrorNotice title={server.state === "failed" ? "Cannot connect" : server.state === "unconfirmed" ? "Not started" : "Last problem"}>
                    {server.error}
                  </ErrorNotice>
                </div>
              ) : null}
              {server.tools.length > 0 ? (
                <details className="mt-3">
                  <summary className="cursor-pointer py-0.5 text-sm font-medium">
                    {server.tools.length} tool{server.tools.length === 1 ? "" : "s"}
                  </summary>
                  <ul className="mt-2 divide-y divide-line text-sm">
                    {server.tools.map((tool) => (
                      <li key={tool.name} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 py-1.5">
                        <span className="font-medium">{tool.title}</span>
                        <code className="font-mono text-xs text-muted">{tool.name}</code>
                        <span className="text-xs text-muted">
                          {[tool.flags.readOnly ? "read-only" : null, tool.flags.destructive ? "destructive" : null, tool.flags.concurrencySafe ? "parallel-safe" : null]
                            .filter(Boolean)
                            .join(" · ") || "changes things"}
                        </span>
                        {tool.unavailable ? (
                          <span className="basis-full text-xs text-caution wrap-anywhere">
                            <strong className="font-semibold">Unavailable:</strong> {tool.unavailable}
                          </span>
                        ) : null}
                      </li>
                    ))}
                  </ul>
                </details>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <ServingSection initialToken={initialToken} />
      {confirming && confirming.transport === "stdio" ? (
        <ConfirmCommandDialog
          server={confirming}
          onClose={() => setConfirming(null)}
          onConfirm={async () => {
            const confirmed = await api<{ server: McpServerView }>(`/api/mcp-servers/${confirming.id}/confirm`, {
              method: "POST",
              body: { command: stdioCommandText(confirming) },
            });
            replace(confirmed.server);
            setConfirming(null);
          }}
        />
      ) : null}
      {editing ? (
        <McpServerDialog
          server={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            setEditing(null);
            setServers((list) => (list.some((each) => each.id === saved.id) ? list.map((each) => (each.id === saved.id ? saved : each)) : [...list, saved]));
          }}
        />
      ) : null}
    </>
  );
}
