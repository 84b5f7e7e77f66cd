"use client";

import { useCallback, useState } from "react";
import { ArchitectModelSchema } from "@/lib/contracts/architect";
import type { WorkflowDefinition } from "@/lib/workflow/definition";
import type { ModelChoice } from "../model-fields";

/** Where this browser remembers the Architect's model: a choice of provider and secret name, never a key. */
const STORAGE_KEY = "studio.architect.model";

/** The first choice: the model an Agent of this workflow uses, else an empty one (the panel then says how to connect one). */
function firstChoice(definition: WorkflowDefinition): ModelChoice {
  const agent = definition.nodes.find((node) => node.kind === "agent");
  if (agent?.kind === "agent") return { provider: agent.provider, model: agent.model, baseUrl: agent.baseUrl, apiKey: agent.apiKey };
  return { provider: "openai", model: "" };
}

/**
 * The model the person drafts with, remembered in this browser between drafts
 * and workflows. The panel is opened by a click, never rendered on the
 * server, so storage is read as it mounts.
 */
export function useModelChoice(definition: WorkflowDefinition) {
  const [choice, setChoice] = useState<ModelChoice>(() => {
    const stored = ArchitectModelSchema.safeParse(readStored());
    return stored.success ? stored.data : firstChoice(definition);
  });
  const change = useCallback((update: Partial<ModelChoice>) => {
    setChoice((current) => {
      const next: ModelChoice = { ...current, ...update };
      for (const key of ["baseUrl", "apiKey"] as const) if (!next[key]) delete next[key];
      return next;
    });
  }, []);
  /** Keeps the choice for next time (after a drafting started with it). */
  const remember = useCallback((model: ModelChoice) => {
    try {
      window.localStorage.setItem(STORAGE_KEY, JSON.stringify(model));
    } catch {
      // Storage refused (private mode, full): the choice still holds for this page.
    }
  }, []);
  return { choice, change, remember };
}

function readStored(): unknown {
  try {
    return JSON.parse(window.localStorage.getItem(STORAGE_KEY) ?? "null");
  } catch {
    return null;
  }
}
