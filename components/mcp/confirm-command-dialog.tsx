"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { ErrorNotice } from "@/components/ui/page-header";
import type { StdioServerConfig } from "@/lib/validations/mcp-server";
import { CommandReview } from "./command-review";

/** "Review and start": a stored stdio server nobody has confirmed yet, its exact command, and the button that starts it. */
export function ConfirmCommandDialog({
  server,
  onClose,
  onConfirm,
}: {
  server: Pick<StdioServerConfig, "name" | "command" | "args" | "env" | "cwd">;
  onClose: () => void;
  onConfirm: () => Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog
      open
      wide
      onClose={onClose}
      title={`Run the command of ${server.name}?`}
      description="This server has not started because nobody has confirmed its command yet."
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={busy}>
            Not now
          </Button>
          <Button
            variant="primary"
            disabled={busy}
            onClick={async () => {
              setBusy(true);
              setError(null);
              try {
                await onConfirm();
              } catch (caught) {
                setError(caught instanceof Error ? caught.message : String(caught));
              } finally {
                setBusy(false);
              }
            }}
          >
            {busy ? "Starting…" : "Run this command"}
          </Button>
        </>
      }
    >
      <CommandReview config={server} />
      {error ? (
        <div className="mt-4">
          <ErrorNotice title="Not started">{error}</ErrorNotice>
        </div>
      ) : null}
    </Dialog>
  );
}
