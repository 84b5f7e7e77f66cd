"use client";

import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { api, ApiError, type ApiIssue } from "@/lib/client/api";
import { PinRecordSchema, type PinBody, type PinRecord } from "@/lib/contracts/pins";
import type { PinnedOutput } from "@/lib/contracts/pins";
import type { RunDetail } from "@/lib/contracts/run";
import { TestRunPreviewSchema, type TestRunPreview } from "@/lib/contracts/test-run";
import { z } from "zod";

/**
 * The editor's test data and test runs: the workflow's pins (the canvas marks
 * pinned cards) and, per node, the test run last started for it from the
 * inspector. Kept above the inspector, so selecting another card neither
 * forgets a run nor stops following it. Everything lives on the server (the
 * pins table, real runs); this only asks and remembers what it was told.
 */

export type TestMode = "step" | "up-to";

/** What a call refused, as the inspector shows it: the server's message and its field issues. */
export interface Refusal {
  message: string;
  issues: ApiIssue[];
}

export type TestRunState = { status: "idle" } | { status: "starting"; mode: TestMode } | { status: "started"; mode: TestMode; run: RunDetail } | { status: "refused"; mode: TestMode; refusal: Refusal };

interface TestRuns {
  pins: ReadonlyMap<string, PinRecord>;
  /** What a test run of the node would keep and lack; refreshed on asking. */
  preview: (nodeId: string, mode: TestMode) => Promise<TestRunPreview | Refusal>;
  pin: (nodeId: string, body: PinBody) => Promise<Refusal | null>;
  unpin: (nodeId: string) => Promise<Refusal | null>;
  stateOf: (nodeId: string) => TestRunState;
  /** Saves the draft when it has unsaved changes, then starts the test run (`inputs`: default the newest run's). */
  start: (nodeId: string, mode: TestMode, values: Record<string, PinnedOutput>, inputs?: Record<string, unknown>) => Promise<void>;
}

const TestRunsContext = createContext<TestRuns | null>(null);
const IDLE: TestRunState = { status: "idle" };
const PinListSchema = z.object({ pins: z.array(PinRecordSchema) });

/** The editor's test runs and pins, or null outside an editor. */
export function useTestRuns(): TestRuns | null {
  return useContext(TestRunsContext);
}

/**
 * The workflow's pins, loaded with the editor and again after each change; the
 * editor holds them (its canvas marks pinned cards) and hands them to the provider.
 */
export function useWorkflowPins(workflowId: string): { pins: ReadonlyMap<string, PinRecord>; reload: () => Promise<void> } {
  const [pins, setPins] = useState<ReadonlyMap<string, PinRecord>>(new Map());
  const reload = useCallback(async () => setPins(await fetchPins(workflowId)), [workflowId]);
  useEffect(() => {
    let current = true;
    // A failure leaves the cards unmarked; the inspector says so when a pin is asked for.
    fetchPins(workflowId)
      .then((loaded) => current && setPins(loaded))
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [workflowId]);
  return { pins, reload };
}

async function fetchPins(workflowId: string): Promise<ReadonlyMap<string, PinRecord>> {
  const { pins } = PinListSchema.parse(await api<unknown>(`/api/workflows/${encodeURIComponent(workflowId)}/pins`));
  return new Map(pins.map((pin) => [pin.nodeId, pin]));
}

interface ProviderProps {
  workflowId: string;
  pins: ReadonlyMap<string, PinRecord>;
  /** Reads the pins again after one changed. */
  reloadPins: () => Promise<void>;
  /** The saved version, saving first when there are unsaved changes; null when saving failed (the editor says why). */
  saveDraft: () => Promise<number | null>;
  children: ReactNode;
}

function refusalOf(failure: unknown, fallback: string): Refusal {
  return failure instanceof ApiError ? { message: failure.message, issues: failure.issues } : { message: fallback, issues: [] };
}

export function TestRunsProvider({ workflowId, pins, reloadPins: loadPins, saveDraft, children }: ProviderProps) {
  const [states, setStates] = useState<ReadonlyMap<string, TestRunState>>(new Map());
  const base = `/api/workflows/${encodeURIComponent(workflowId)}`;

  const setState = useCallback((nodeId: string, state: TestRunState) => setStates((current) => new Map(current).set(nodeId, state)), []);

  const preview = useCallback(
    async (nodeId: string, mode: TestMode): Promise<TestRunPreview | Refusal> => {
      try {
        const { preview: answer } = await api<{ preview: unknown }>(`${base}/test-runs?nodeId=${encodeURIComponent(nodeId)}&mode=${mode}`);
        return TestRunPreviewSchema.parse(answer);
      } catch (failure) {
        return refusalOf(failure, "What the test would use could not be loaded.");
      }
    },
    [base],
  );

  const pin = useCallback(
    async (nodeId: string, body: PinBody): Promise<Refusal | null> => {
      try {
        await api(`${base}/pins/${encodeURIComponent(nodeId)}`, { method: "PUT", body });
        await loadPins();
        return null;
      } catch (failure) {
        return refusalOf(failure, "The output could not be pinned.");
      }
    },
    [base, loadPins],
  );

  const unpin = useCallback(
    async (nodeId: string): Promise<Refusal | null> => {
      try {
        await api(`${base}/pins/${encodeURIComponent(nodeId)}`, { method: "DELETE" });
        await loadPins();
        return null;
      } catch (failure) {
        return refusalOf(failure, "The pin could not be removed.");
      }
    },
    [base, loadPins],
  );

  const start = useCallback(
    async (nodeId: string, mode: TestMode, values: Record<string, PinnedOutput>, inputs?: Record<string, unknown>) => {
      setState(nodeId, { status: "starting", mode });
      // A test run runs the saved draft: a node added since the last save must be saved to be tested.
      const version = await saveDraft();
      if (version === null) {
        setState(nodeId, IDLE);
        return;
      }
      try {
        const { run } = await api<{ run: RunDetail }>(`${base}/test-runs`, { method: "POST", body: { nodeId, mode, values, version, ...(inputs ? { inputs } : {}) } });
        setState(nodeId, { status: "started", mode, run });
      } catch (failure) {
        setState(nodeId, { status: "refused", mode, refusal: refusalOf(failure, "The test run could not be started.") });
      }
    },
    [base, saveDraft, setState],
  );

  const value = useMemo<TestRuns>(
    () => ({ pins, preview, pin, unpin, start, stateOf: (nodeId) => states.get(nodeId) ?? IDLE }),
    [pins, preview, pin, unpin, start, states],
  );
  return <TestRunsContext.Provider value={value}>{children}</TestRunsContext.Provider>;
}
