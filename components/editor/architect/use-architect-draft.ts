"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { ArchitectEvent, ArchitectUsage } from "@/lib/architect/architect";
import type { DraftProblem } from "@/lib/architect/draft-problems";
import type { Draft } from "@/lib/architect/draft-schema";
import { ApiError, postForEvents, type ApiIssue } from "@/lib/client/api";
import type { DraftRequest } from "@/lib/contracts/architect";
import type { WorkflowDefinitionInput } from "@/lib/workflow/definition";

/** One round's answer as checked: whether it parsed, and what was wrong with it (sent back to the model, or left for the person). */
export interface RoundCheck {
  round: number;
  parsed: boolean;
  problems: DraftProblem[];
}

export type DraftState =
  | { phase: "idle" }
  | { phase: "drafting"; round: number; partial: unknown; checks: RoundCheck[] }
  | { phase: "done"; draft: Draft | null; definition: WorkflowDefinitionInput | null; problems: DraftProblem[]; rounds: number; usage: ArchitectUsage; checks: RoundCheck[] }
  /** Refused before drafting (`issues` name the fields), or the model could not be asked, or Stop: the partial answer kept to look at. */
  | { phase: "failed"; error: string; partial: unknown; checks: RoundCheck[]; issues: ApiIssue[] };

const STOPPED = "Stopped: nothing was applied. The draft so far is kept to look at.";

/**
 * One drafting at a time with the Architect (POST /api/architect/drafts): its
 * rounds, the answer as it streams, each round's check, and its end. Stop
 * aborts the request, which ends the model's call on the server; a new
 * drafting or clear() makes whatever an older one still reports moot.
 */
export function useArchitectDraft() {
  const [state, setState] = useState<DraftState>({ phase: "idle" });
  const running = useRef<AbortController | null>(null);
  // Each drafting's number: only the newest one may change the state.
  const generation = useRef(0);
  useEffect(() => () => running.current?.abort(), []);

  const start = useCallback(async (request: DraftRequest) => {
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    const mine = ++generation.current;
    const update = (next: DraftState) => {
      if (generation.current === mine) setState(next);
    };
    const checks: RoundCheck[] = [];
    let partial: unknown = null;
    let round = 1;
    let ended = false;
    update({ phase: "drafting", round, partial, checks: [] });
    try {
      for await (const block of postForEvents("/api/architect/drafts", request, controller.signal)) {
        const event = JSON.parse(block.data) as ArchitectEvent;
        if (event.type === "round") round = event.round;
        else if (event.type === "partial") partial = event.draft;
        else if (event.type === "checked") checks.push({ round: event.round, parsed: event.draft !== null, problems: event.problems });
        if (event.type === "done") {
          ended = true;
          update({ phase: "done", draft: event.draft, definition: event.definition, problems: event.problems, rounds: event.rounds, usage: event.usage, checks: [...checks] });
        } else if (event.type === "failed") {
          ended = true;
          update({ phase: "failed", error: event.error, partial: event.partial ?? partial, checks: [...checks], issues: [] });
        } else {
          update({ phase: "drafting", round, partial, checks: [...checks] });
        }
      }
      if (!ended) update({ phase: "failed", error: "The studio ended the drafting without an answer. Nothing was applied; try again.", partial, checks, issues: [] });
    } catch (error) {
      if (controller.signal.aborted) update({ phase: "failed", error: STOPPED, partial, checks, issues: [] });
      else if (error instanceof ApiError) update({ phase: "failed", error: error.message, partial, checks, issues: error.issues });
      else update({ phase: "failed", error: `The answer stopped arriving (${error instanceof Error ? error.message : String(error)}). Nothing was applied.`, partial, checks, issues: [] });
    } finally {
      if (running.current === controller) running.current = null;
    }
  }, []);

  /** Stops the drafting under way: the model's call ends, what came so far stays to look at. */
  const stop = useCallback(() => running.current?.abort(), []);

  /** Forgets the drafting (stopping it if it still runs). */
  const clear = useCallback(() => {
    generation.current += 1;
    running.current?.abort();
    running.current = null;
    setState({ phase: "idle" });
  }, []);

  return { state, start, stop, clear };
}
