"use client";

import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDeleteDialog } from "@/components/ui/confirm-delete-dialog";
import { CardActions, CardCell, columnsOf, labelledColumns, RowCard, RowCardTable, type RowCardColumn } from "@/components/ui/row-cards";
import { RelativeTime } from "@/components/workflow-list/relative-time";
import type { TokenView } from "@/lib/contracts/people";
import type { Scope } from "@/lib/contracts/roles";
import { MakeTokenDialog } from "./make-token-dialog";

const COLUMNS: readonly RowCardColumn[] = labelledColumns(
  [["Name"], ["Scopes", "w-56"], ["Made", "w-32"], ["Expires", "w-32"], ["Last used", "w-32"]],
  "w-40",
);

/**
 * The person's personal access tokens: what each may do, when it stops, when
 * it was last used; Make a token, and Revoke (it stops working at once).
 * Revoked tokens stay listed, so their last use can still be read.
 */
export function TokenList({ initialTokens, scopes }: { initialTokens: TokenView[]; scopes: readonly Scope[] }) {
  const [tokens, setTokens] = useState(initialTokens);
  const [making, setMaking] = useState(false);
  const [revoking, setRevoking] = useState<TokenView | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // Rendered once per page: "expired" is judged at the time the page was drawn.
  const [now] = useState(() => Date.now());

  return (
    <section aria-labelledby="tokens-heading">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <h2 id="tokens-heading" ref={heading} tabIndex={-1} className="rounded-sm text-lg font-semibold">
          Personal access tokens
        </h2>
        <Button variant="primary" onClick={() => setMaking(true)}>
          Make a token
        </Button>
      </div>
      <p className="mb-4 max-w-2xl text-sm text-muted">
        For scripts, the CLI and MCP clients: send one as <code className="font-mono text-xs">Authorization: Bearer nsp_…</code>. A token does what its
        scopes allow and never more than your role does at the moment it is used.
      </p>
      {tokens.length === 0 ? (
        <p className="text-sm text-muted">No tokens yet.</p>
      ) : (
        <RowCardTable caption="Your personal access tokens" tableClassName="sm:min-w-[52rem] sm:table-fixed" {...columnsOf(COLUMNS)}>
          {tokens.map((token) => {
            const expired = token.expiresAt !== null && Date.parse(token.expiresAt) <= now;
            return (
              <RowCard key={token.id} className={token.revokedAt || expired ? "opacity-70" : ""}>
                <CardCell part="title" label="Name" rowHeader className="py-3 pl-5 pr-3 font-medium wrap-anywhere">
                  {token.name}
                </CardCell>
                <CardCell part="detail" label="Scopes" className="px-3 py-3 max-sm:w-full">
                  <ul className="inline-flex flex-wrap gap-1 align-middle">
                    {token.scopes.map((scope) => (
                      <li key={scope} className="rounded bg-surface-sunken px-1.5 py-0.5 font-mono text-xs">
                        {scope}
                      </li>
                    ))}
                  </ul>
                </CardCell>
                <CardCell part="detail" label="Made" className="px-3 py-3 text-sm text-muted">
                  <RelativeTime value={token.createdAt} />
                </CardCell>
                <CardCell part="detail" label={expired ? "Expired" : "Expires"} className="px-3 py-3 text-sm text-muted">
                  {token.expiresAt ? <RelativeTime value={token.expiresAt} /> : "never"}
                </CardCell>
                <CardCell part="detail" label="Last used" className="px-3 py-3 text-sm text-muted">
                  {token.lastUsedAt ? <RelativeTime value={token.lastUsedAt} /> : "never"}
                </CardCell>
                {/* On a phone a revoked or expired token's card ends with what became of it, not under "Actions". */}
                <CardCell part="actions" label={token.revokedAt || expired ? undefined : "Actions"} className="py-3 pl-3 pr-5 text-sm text-muted">
                  <CardActions>
                    {token.revokedAt ? (
                      <span>
                        revoked <RelativeTime value={token.revokedAt} />
                      </span>
                    ) : expired ? (
                      <span>expired</span>
                    ) : (
                      <Button size="sm" aria-label={`Revoke ${token.name}`} onClick={() => setRevoking(token)}>
                        Revoke
                      </Button>
                    )}
                  </CardActions>
                </CardCell>
              </RowCard>
            );
          })}
        </RowCardTable>
      )}
      {making ? <MakeTokenDialog scopes={scopes} onClose={() => setMaking(false)} onMade={(token) => setTokens((current) => [token, ...current])} /> : null}
      {revoking ? (
        <ConfirmDeleteDialog
          title={`Revoke “${revoking.name}”?`}
          confirmLabel="Revoke token"
          pendingLabel="Revoking…"
          errorTitle="Not revoked"
          path={`/api/me/tokens/${encodeURIComponent(revoking.id)}`}
          onClose={() => setRevoking(null)}
          onDeleted={() => {
            const revokedAt = new Date().toISOString();
            setTokens((current) => current.map((each) => (each.id === revoking.id ? { ...each, revokedAt } : each)));
            setRevoking(null);
          }}
          focusAfter={() => heading.current}
        >
          <p>
            Whatever uses “{revoking.name}” is refused from its next request. This cannot be undone; make a new token if it is needed again.
          </p>
        </ConfirmDeleteDialog>
      ) : null}
    </section>
  );
}
