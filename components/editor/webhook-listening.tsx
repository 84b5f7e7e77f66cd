"use client";

import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { api, ApiError } from "@/lib/client/api";
import { WebhookTestListenSchema, WebhookTestResultSchema, type WebhookTestListen, type WebhookTestResult } from "@/lib/contracts/webhook-test";

/**
 * The editor listening for test deliveries on its webhook nodes. Kept above
 * the inspector, so selecting another card does not end a listen; the
 * listen itself lives on the server (a listen route and its event stream),
 * this only follows it.
 */

export type ListenState =
  | { status: "idle" }
  | { status: "starting" }
  | { status: "listening"; listen: WebhookTestListen }
  | { status: "captured"; listen: WebhookTestListen; result: WebhookTestResult }
  | { status: "expired"; listen: WebhookTestListen }
  | { status: "failed"; message: string };

interface WebhookListening {
  stateOf: (nodeId: string) => ListenState;
  listen: (nodeId: string) => Promise<void>;
  stop: (nodeId: string) => void;
}

const ListeningContext = createContext<WebhookListening | null>(null);
const IDLE: ListenState = { status: "idle" };

/** The node's listen, or null outside an editor (nothing to listen with). */
export function useWebhookListening(nodeId: string): { state: ListenState; listen: () => Promise<void>; stop: () => void } | null {
  const context = useContext(ListeningContext);
  if (!context) return null;
  return { state: context.stateOf(nodeId), listen: () => context.listen(nodeId), stop: () => context.stop(nodeId) };
}

interface ProviderProps {
  workflowId: string;
  /** Saves the draft when it has unsaved changes; the saved version, or null when saving failed (the editor says why). */
  saveDraft: () => Promise<number | null>;
  children: ReactNode;
}

export function WebhookListeningProvider({ workflowId, saveDraft, children }: ProviderProps) {
  const [states, setStates] = useState<ReadonlyMap<string, ListenState>>(new Map());
  const sources = useRef(new Map<string, { source: EventSource; listenId: string }>());
  const listenPath = useCallback((nodeId: string) => `/api/workflows/${encodeURIComponent(workflowId)}/webhooks/${encodeURIComponent(nodeId)}/listen`, [workflowId]);

  const setState = useCallback((nodeId: string, state: ListenState) => {
    setStates((current) => new Map(current).set(nodeId, state));
  }, []);

  const close = useCallback((nodeId: string) => {
    sources.current.get(nodeId)?.source.close();
    sources.current.delete(nodeId);
  }, []);

  const listen = useCallback(
    async (nodeId: string) => {
      close(nodeId);
      setState(nodeId, { status: "starting" });
      const version = await saveDraft();
      if (version === null) {
        setState(nodeId, IDLE);
        return;
      }
      let listen: WebhookTestListen;
      try {
        listen = WebhookTestListenSchema.parse((await api<{ listen: unknown }>(listenPath(nodeId), { method: "POST", body: { version } })).listen);
      } catch (failure) {
        setState(nodeId, { status: "failed", message: failure instanceof ApiError ? failure.message : "Could not start listening." });
        return;
      }
      setState(nodeId, { status: "listening", listen });
      // The stream says what became of the listen; EventSource reconnects by itself, and the server reads the stored listen again.
      const source = new EventSource(`${listenPath(nodeId)}?listen=${encodeURIComponent(listen.listenId)}`);
      sources.current.set(nodeId, { source, listenId: listen.listenId });
      const finish = (state: ListenState) => {
        if (sources.current.get(nodeId)?.source !== source) return;
        close(nodeId);
        setState(nodeId, state);
      };
      source.addEventListener("captured", (event) => {
        const result = WebhookTestResultSchema.safeParse(JSON.parse((event as MessageEvent<string>).data));
        finish(result.success ? { status: "captured", listen, result: result.data } : { status: "failed", message: "The captured delivery could not be read." });
      });
      source.addEventListener("expired", () => finish({ status: "expired", listen }));
      source.addEventListener("stopped", () => finish(IDLE));
    },
    [close, listenPath, saveDraft, setState],
  );

  const stop = useCallback(
    (nodeId: string) => {
      const current = sources.current.get(nodeId);
      close(nodeId);
      setState(nodeId, IDLE);
      if (current) void api(`${listenPath(nodeId)}?listen=${encodeURIComponent(current.listenId)}`, { method: "DELETE" }).catch(() => undefined);
    },
    [close, listenPath, setState],
  );

  // Leaving the editor ends its listens: nobody would see what arrives.
  useEffect(() => {
    const open = sources.current;
    return () => {
      for (const [nodeId, { source, listenId }] of open) {
        source.close();
        void fetch(`${listenPath(nodeId)}?listen=${encodeURIComponent(listenId)}`, { method: "DELETE", keepalive: true }).catch(() => undefined);
      }
      open.clear();
    };
  }, [listenPath]);

  const value = useMemo<WebhookListening>(() => ({ stateOf: (nodeId) => states.get(nodeId) ?? IDLE, listen, stop }), [states, listen, stop]);
  return <ListeningContext.Provider value={value}>{children}</ListeningContext.Provider>;
}
