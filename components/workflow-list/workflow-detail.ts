import type { WorkflowDefinition } from "@/lib/workflow/definition";

/** GET/PUT /api/workflows/{id} as JSON: the newest definition, exactly as stored. */
export interface WorkflowDetailResponse {
  workflow: {
    id: string;
    name: string;
    description: string;
    latestVersion: number;
    updatedAt: string;
    definition: WorkflowDefinition;
  };
}

export function workflowPath(id: string): string {
  return `/api/workflows/${encodeURIComponent(id)}`;
}
