import { z } from "zod";
import { WorkflowDefinitionSchema } from "@/lib/workflow/definition";
import { LISTEN_SECONDS_DEFAULT, LISTEN_SECONDS_MAX } from "@/lib/contracts/webhook-test";

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

/** POST /workflows/:id/webhooks/:nodeId/listen: the saved version whose webhook node listens, and for how long. */
export const ListenForTestBodySchema = z.strictObject({
  version: z.number().int().positive(),
  seconds: z.number().int().min(1).max(LISTEN_SECONDS_MAX).default(LISTEN_SECONDS_DEFAULT),
});
export type ListenForTestBody = z.infer<typeof ListenForTestBodySchema>;

/** GET and DELETE /workflows/:id/webhooks/:nodeId/listen?listen=…: which listen to follow or stop. */
export const ListenQuerySchema = z.object({
  listen: z.string().min(1, "say which listen: ?listen=<listenId> from the POST's answer").max(100),
});
