"use client";

import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { z } from "zod";
import { api } from "@/lib/client/api";
import { WorkflowSamplesSchema, type WorkflowSamples } from "@/lib/contracts/samples";
import { sampleScopeOf, type SampleScope } from "@/lib/editor/field-mapping";
import type { InputField } from "@/lib/workflow/definition";
import { useTestRuns } from "./test-runs";

/**
 * The samples the editor maps fields from (GET /api/workflows/{id}/samples):
 * each node's pin, else its newest run output, and the newest run's inputs.
 * Asked for with the editor, again when a pin changes or a test run ends, and
 * when a picker opens (a run started elsewhere may have finished since).
 */

interface Samples {
  scope: SampleScope;
  /** Whether the first answer has come (before it, "no sample yet" would be premature). */
  loaded: boolean;
  reload: () => void;
}

const SamplesContext = createContext<Samples | null>(null);
const AnswerSchema = z.object({ samples: WorkflowSamplesSchema });

/** The editor's samples, or null outside an editor (a field then shows no previews). */
export function useSamples(): Samples | null {
  return useContext(SamplesContext);
}

interface SamplesProviderProps {
  workflowId: string;
  /** The draft's run input fields: their defaults stand in for inputs until a run gives some. */
  inputFields: readonly InputField[];
  children: ReactNode;
}

export function SamplesProvider({ workflowId, inputFields, children }: SamplesProviderProps) {
  const [samples, setSamples] = useState<WorkflowSamples | null>(null);
  const [asked, setAsked] = useState(0);
  const reload = useCallback(() => setAsked((count) => count + 1), []);
  const pins = useTestRuns()?.pins;
  const latest = useRef(0);

  useEffect(() => {
    const request = (latest.current += 1);
    // A failed load leaves the last samples; the previews then say what they lack, and the next change asks again.
    api<unknown>(`/api/workflows/${encodeURIComponent(workflowId)}/samples`)
      .then((answer) => {
        if (request === latest.current) setSamples(AnswerSchema.parse(answer).samples);
      })
      .catch(() => undefined);
  }, [workflowId, pins, asked]);

  const scope = useMemo(() => sampleScopeOf(samples, inputFields), [samples, inputFields]);
  const value = useMemo<Samples>(() => ({ scope, loaded: samples !== null, reload }), [scope, samples, reload]);
  return <SamplesContext.Provider value={value}>{children}</SamplesContext.Provider>;
}
