"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";

const GUARD_KEY = "__neurosurferEditorGuard";

type Destination = { kind: "link"; href: string } | { kind: "back" };

/**
 * Asks before unsaved changes are lost: the browser's own prompt on reload or
 * close, and a dialog for links inside the studio and for the Back button
 * (caught with one extra history entry while there are changes).
 */
export function LeaveGuard({ dirty }: { dirty: boolean }) {
  const router = useRouter();
  const [pending, setPending] = useState<Destination | null>(null);
  const dirtyRef = useRef(dirty);
  const leaving = useRef(false);

  useEffect(() => {
    dirtyRef.current = dirty;
  }, [dirty]);

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (leaving.current) return;
      event.preventDefault();
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [dirty]);

  // Links: caught before Next's <Link> sees the click.
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (!dirtyRef.current || leaving.current || event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const anchor = (event.target as Element | null)?.closest?.("a[href]");
      if (!(anchor instanceof HTMLAnchorElement) || anchor.target === "_blank" || anchor.hasAttribute("download")) return;
      const url = new URL(anchor.href, window.location.href);
      if (url.origin !== window.location.origin) return;
      if (url.pathname === window.location.pathname && url.search === window.location.search) return;
      event.preventDefault();
      event.stopPropagation();
      setPending({ kind: "link", href: `${url.pathname}${url.search}${url.hash}` });
    };
    document.addEventListener("click", onClick, true);
    return () => document.removeEventListener("click", onClick, true);
  }, []);

  // Back: while there are changes, an extra entry for this page sits on top; leaving it asks.
  const guardActive = useRef(false);
  useEffect(() => {
    if (!dirty || guardActive.current) return;
    const state = window.history.state as Record<string, unknown> | null;
    window.history.pushState({ ...state, [GUARD_KEY]: true }, "", window.location.href);
    guardActive.current = true;
  }, [dirty]);

  useEffect(() => {
    const here = window.location.href;
    const onPopState = () => {
      const state = window.history.state as Record<string, unknown> | null;
      if (leaving.current || state?.[GUARD_KEY] || !guardActive.current || window.location.href !== here) return;
      guardActive.current = false;
      if (dirtyRef.current) setPending({ kind: "back" });
      // The changes were saved since: the guard entry is spent, so carry on with the person's Back.
      else window.history.back();
    };
    window.addEventListener("popstate", onPopState);
    return () => window.removeEventListener("popstate", onPopState);
  }, []);

  const stay = () => {
    if (pending?.kind === "back") {
      const state = window.history.state as Record<string, unknown> | null;
      window.history.pushState({ ...state, [GUARD_KEY]: true }, "", window.location.href);
      guardActive.current = true;
    }
    setPending(null);
  };

  const leave = () => {
    const destination = pending;
    leaving.current = true;
    setPending(null);
    if (destination?.kind === "link") router.push(destination.href);
    else window.history.back();
  };

  return (
    <Dialog
      open={pending !== null}
      onClose={stay}
      title="Leave without saving?"
      description="This workflow has changes that are not saved. If you leave now, they are lost."
      footer={
        <>
          <Button onClick={stay} autoFocus>
            Keep editing
          </Button>
          <Button variant="danger" onClick={leave}>
            Leave and discard changes
          </Button>
        </>
      }
    >
      <p className="text-sm text-muted">To keep them, choose Keep editing, then Save (Ctrl+S).</p>
    </Dialog>
  );
}
