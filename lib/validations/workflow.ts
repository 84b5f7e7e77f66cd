import { z } from "zod";
import { WorkflowDefinitionSchema } from "@/lib/workflow/definition";

/** POST /workflows: the whole definition; its name and description become the workflow's. */
export const CreateWorkflowBodySchema = WorkflowDefinitionSchema;
export type CreateWorkflowBody = z.infer<typeof CreateWorkflowBodySchema>;

/** PUT /workflows/:id: the whole definition; every save adds a version. */
export const UpdateWorkflowBodySchema = WorkflowDefinitionSchema;
export type UpdateWorkflowBody = z.infer<typeof UpdateWorkflowBodySchema>;

/** POST /workflows/:id/duplicate: an optional name for the copy (default "<name> (copy)"). */
export const DuplicateWorkflowBodySchema = z.object({
  name: WorkflowDefinitionSchema.shape.name.optional(),
});
export type DuplicateWorkflowBody = z.infer<typeof DuplicateWorkflowBodySchema>;

/** POST /workflows/:id/publish: the version whose triggers go live (default the newest). */
export const PublishWorkflowBodySchema = z.strictObject({
  version: z.number().int().positive().optional(),
});
export type PublishWorkflowBody = z.infer<typeof PublishWorkflowBodySchema>;
