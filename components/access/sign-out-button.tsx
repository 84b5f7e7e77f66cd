"use client";

import { useState } from "react";
import { expectSignOut } from "@/lib/client/api";

/** Ends the session on the server, then shows the sign-in page. */
export function SignOutButton() {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        expectSignOut();
        await fetch("/api/auth/logout", { method: "POST" }).catch(() => undefined);
        window.location.href = new URL("/login", window.location.origin).href;
      }}
      className="rounded-md px-2.5 py-1.5 text-sm font-medium text-muted hover:bg-surface-sunken hover:text-foreground disabled:opacity-60"
    >
      {busy ? "Signing out…" : "Sign out"}
    </button>
  );
}
