"use client";

import { useEffect, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { useFormatTime } from "@/components/ui/use-format-time";
import { api } from "@/lib/client/api";
import { grantInForce, type WriteGrantRecord } from "@/lib/contracts/grants";

interface GrantsAnswer {
  grants: WriteGrantRecord[];
  mayRevoke: boolean;
}

/**
 * The workflow settings' "Always allowed": the folders whose file changes go
 * ahead without asking because someone answered "Always allow", who did, and
 * until when; Revoke for those who may decide the workflow's approvals (the
 * server says who: `mayRevoke`). One that ran out is listed as such until
 * revoked, so a person sees why a write asks again.
 */
export function AlwaysAllowedSection({ workflowId }: { workflowId: string }) {
  const id = useId();
  const formatTime = useFormatTime();
  const [answer, setAnswer] = useState<GrantsAnswer | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<string | null>(null);
  // Bumped after a revoke: the list is read again.
  const [listed, setListed] = useState(0);

  useEffect(() => {
    let live = true;
    api<GrantsAnswer>(`/api/workflows/${encodeURIComponent(workflowId)}/grants`)
      .then((answer) => live && setAnswer(answer))
      .catch((error: Error) => live && setProblem(`Could not list what is always allowed: ${error.message}`));
    return () => {
      live = false;
    };
  }, [workflowId, listed]);

  const revoke = async (grant: WriteGrantRecord) => {
    setRevoking(grant.id);
    setProblem(null);
    try {
      await api(`/api/workflows/${encodeURIComponent(workflowId)}/grants/${encodeURIComponent(grant.id)}`, { method: "DELETE" });
      setListed((count) => count + 1);
    } catch (error) {
      setProblem((error as Error).message);
    } finally {
      setRevoking(null);
    }
  };

  const grants = answer?.grants ?? [];
  return (
    <section aria-labelledby={`${id}-title`} className="space-y-2 border-t border-line pt-5">
      <div>
        <h3 id={`${id}-title`} className="text-xs font-semibold uppercase tracking-wide text-muted">
          Always allowed
        </h3>
        <p className="mt-1 text-xs leading-relaxed text-muted">File changes that go ahead without asking, because someone answered “Always allow”. Each lasts as long as its rule says.</p>
      </div>
      {answer && grants.length === 0 ? <p className="text-xs text-muted">Nothing: every file change asks as its rule says.</p> : null}
      {grants.length > 0 ? (
        <ul className="space-y-2" aria-label="Always allowed">
          {grants.map((grant) => {
            const inForce = grantInForce(grant);
            return (
              <li key={grant.id} className="flex items-start justify-between gap-2 rounded-lg border border-line p-2 text-xs">
                <div className="min-w-0 space-y-0.5">
                  <p className="break-all font-mono text-foreground">{grant.pattern}</p>
                  <p className="break-all text-muted">in {grant.root}</p>
                  <p className="text-muted">
                    {grant.createdBy ? `Allowed by ${grant.createdBy}, ` : "Allowed "}
                    {formatTime(grant.createdAt, "date-time")}
                    {grant.expiresAt === null ? "; no end" : inForce ? `; until ${formatTime(grant.expiresAt, "date-time")}` : null}
                  </p>
                  {!inForce ? <p className="font-medium text-caution">Ran out {formatTime(grant.expiresAt!, "date-time")}: these writes ask again.</p> : null}
                </div>
                {answer?.mayRevoke ? (
                  <Button size="sm" variant="ghost" disabled={revoking !== null} onClick={() => void revoke(grant)} aria-label={`Revoke: always allow ${grant.pattern}`}>
                    {revoking === grant.id ? "Revoking…" : "Revoke"}
                  </Button>
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : null}
      {problem ? (
        <p role="alert" className="text-xs text-caution">
          {problem}
        </p>
      ) : null}
    </section>
  );
}
