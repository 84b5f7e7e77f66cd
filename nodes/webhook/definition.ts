import { z } from "zod";
import { parseSecretReference } from "@/lib/tools/contracts";
import { FIELD_NAME, nodeBase } from "../node-base";
import { defineBlockKind } from "../node-kind";

/**
 * A webhook trigger: an HTTP endpoint at /hooks/{path} that starts the
 * workflow's published version. Its fields are decided by whoever builds the
 * workflow (never by a model); the request becomes the run's inputs through
 * `mapping`, and the node's own result is the request (method, query, the
 * headers it was asked to keep, body) for the nodes after it.
 */

export const WEBHOOK_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** How a sender proves it is who the workflow expects. `unset` is refused: "none" must be chosen on purpose. */
export const WEBHOOK_AUTHENTICATIONS = ["unset", "none", "header-token", "hmac-sha256"] as const;
export type WebhookAuthentication = (typeof WEBHOOK_AUTHENTICATIONS)[number];

/**
 * What an HMAC signature covers. `body`: the raw body, the header holding
 * prefix + hex digest (GitHub: X-Hub-Signature-256, prefix `sha256=`).
 * `timestamped`: `{t}.{body}`, the header holding `t=<unix seconds>,v1=<hex>`
 * (Stripe's scheme), refused outside the tolerance window against replays.
 */
export const WEBHOOK_SIGNATURE_STYLES = ["body", "timestamped"] as const;

export const WEBHOOK_RESPONSES = ["when-finished", "at-once"] as const;
export const WEBHOOK_RESPONSE_TYPES = ["auto", "json", "text", "html"] as const;

/** The parts of a request a mapping may read. */
export const REQUEST_PARTS = ["body", "query", "headers", "method"] as const;

/** A hook id: the URL's stable part, made when the node is created; long and random so URLs cannot be guessed. */
export const HOOK_ID = /^[A-Za-z0-9_-]{16,64}$/;
/** A chosen path: lower-case words joined by / - _ (no dots, no empty parts), e.g. `github/push`. */
export const HOOK_PATH = /^[a-z0-9](?:[a-z0-9_-]*[a-z0-9])?(?:\/[a-z0-9](?:[a-z0-9_-]*[a-z0-9])?){0,7}$/;
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/;

const headerName = (what: string) => z.string().trim().regex(HEADER_NAME, `${what} is an HTTP header name, e.g. X-Signature`);
const optionalHeaderName = (what: string) =>
  z
    .string()
    .trim()
    .max(100)
    .refine((value) => value === "" || HEADER_NAME.test(value), `${what} is an HTTP header name, or empty`)
    .default("");

export const WebhookMappingSchema = z.object({
  /** The run input this fills. */
  input: z.string().regex(FIELD_NAME, "an input name is a letter or _ followed by letters, digits or _"),
  /** Where in the request: `body.user.name`, `body.items[0]`, `query.page`, `headers.x-github-event`, `method`, or `body` itself. */
  from: z.string().trim().min(1, "say where in the request, e.g. body.name").max(300),
});
export type WebhookMapping = z.infer<typeof WebhookMappingSchema>;


/** The webhook's settings: the form the inspector generates from this schema (z.toJSONSchema); `.describe` is each field's help. */
export const WebhookSettingsSchema = z.object({
  path: z
    .string()
    .trim()
    .max(200)
    .refine((value) => value === "" || HOOK_PATH.test(value), "a path is lower-case words of letters, digits, - and _ joined by /, e.g. github/push")
    .default("")
    .describe("A readable address instead of the random one, e.g. github/push for /hooks/github/push. Empty keeps the random address, which nobody can guess."),
  methods: z.array(z.enum(WEBHOOK_METHODS)).min(1, "allow at least one method").default(["POST"]).describe("The HTTP methods it accepts; others get 405."),
  authentication: z
    .enum(WEBHOOK_AUTHENTICATIONS)
    .default("unset")
    .describe("How senders prove who they are. None must be chosen on purpose: then anyone who learns the address can start the workflow."),
  secret: z
    .string()
    .trim()
    .max(200)
    .refine((value) => value === "" || parseSecretReference(value) !== null, "pick a stored secret; its value never goes into the workflow")
    .default("")
    .describe("The stored secret holding the token, or the signing secret the sender was given."),
  header: headerName("the header").default("Authorization").describe("The header carrying the token or the signature, e.g. Authorization, X-Hub-Signature-256 or Stripe-Signature."),
  prefix: z.string().max(50).default("").describe("Text before the token or the signature in that header: Bearer (with its space) or sha256=."),
  signatureStyle: z
    .enum(WEBHOOK_SIGNATURE_STYLES)
    .default("body")
    .describe("body: the signature covers the raw body (GitHub). timestamped: the header is t=<unix seconds>,v1=<signature> over t.body (Stripe), refused outside the tolerance."),
  toleranceSeconds: z.number().int().min(1).max(86_400).default(300).describe("How far a timestamped signature's time may be from now; older deliveries are replays and are refused."),
  idempotencyHeader: optionalHeaderName("the idempotency header").describe(
    "A header naming each delivery (Idempotency-Key, X-GitHub-Delivery): a delivery whose name was seen within 24 h answers with the first one's run instead of starting another.",
  ),
  respond: z
    .enum(WEBHOOK_RESPONSES)
    .default("when-finished")
    .describe("when-finished: the answer is the run's output. at-once: 202 with the run's id and address as soon as it starts."),
  timeoutSeconds: z.number().int().min(1).max(300).default(30).describe("A run still going after this long (or waiting for a person) is answered with 202 and its address instead."),
  responseStatus: z.number().int().min(200).max(299).default(200).describe("The status of the answer when the run succeeded."),
  responseType: z.enum(WEBHOOK_RESPONSE_TYPES).default("auto").describe("How the output is sent: auto sends text as text and anything else as JSON."),
  maxBodyKilobytes: z.number().int().min(1).max(102_400).default(1024).describe("Larger bodies get 413 and start nothing."),
  ratePerMinute: z.number().int().min(0).max(1_000_000).default(600).describe("Deliveries a minute it accepts (per studio process); more get 429. 0 for no limit."),
  allowedOrigins: z
    .array(z.string().trim().url("an origin is like https://example.com").max(200))
    .max(20)
    .default([])
    .describe("Sites whose web pages may call it from a browser (e.g. https://forms.example.com). Pages of other sites are refused, so a page you visit cannot start runs."),
  keepHeaders: z
    .array(headerName("a kept header"))
    .max(50)
    .default([])
    .describe("Request headers handed on to the next steps (e.g. X-GitHub-Event). Others are dropped, and the credential's header never travels on."),
  mapping: z
    .array(WebhookMappingSchema)
    .max(100)
    .default([])
    .describe("Which part of the request fills each run input: body.name, body.items[0].id, query.page, headers.x-github-event or method."),
});
export type WebhookSettings = z.infer<typeof WebhookSettingsSchema>;

export const WebhookNodeSchema = z.object({
  ...nodeBase,
  kind: z.literal("webhook"),
  hookId: z.string().regex(HOOK_ID, "a hook id is 16 to 64 letters, digits, - or _"),
  ...WebhookSettingsSchema.shape,
});
export type WebhookNode = z.infer<typeof WebhookNodeSchema>;

/**
 * Where a webhook answers: the live address starts the published version; the
 * test address answers only while an editor listens on the node, and runs
 * that editor's saved draft (like n8n's /webhook-test/).
 */
export const HOOK_PREFIXES = { live: "/hooks/", test: "/hooks-test/" } as const;
export type HookAddress = keyof typeof HOOK_PREFIXES;

/** What follows /hooks/ (or /hooks-test/) in the node's URL. */
export function hookPath(node: Pick<WebhookNode, "hookId" | "path">): string {
  return node.path || node.hookId;
}

/** A new hook id: 22 characters of base64url (132 random bits). */
export function newHookId(): string {
  const bytes = new Uint8Array(17);
  crypto.getRandomValues(bytes);
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "").slice(0, 22);
}

/**
 * The same workflow with a new random address for every webhook: a copy or
 * an import must not answer at, or clash with, the original's URL. Chosen
 * paths stay (publishing says so when another live workflow holds one).
 */
export function withFreshHookIds<Definition extends { nodes: readonly { kind: string }[] }>(definition: Definition): Definition {
  if (!definition.nodes.some((node) => node.kind === "webhook")) return definition;
  return { ...definition, nodes: definition.nodes.map((node) => (node.kind === "webhook" ? { ...node, hookId: newHookId() } : node)) };
}

export const webhookKind = defineBlockKind(WebhookNodeSchema, {
  title: "Webhook",
  icon: "webhook",
  palette: { help: "Starts the published workflow when a request arrives.", group: "triggers" },
  startsRuns: "on-trigger",
  onlyComputes: true,
  newNodeExtra: () => ({ hookId: newHookId() }),
  card: {
    content: (node) => ({
      subtitle: `${node.methods.join(", ")} /hooks/${hookPath(node)}`,
      // A trigger starts the workflow: nothing flows into it.
      hasInput: false,
    }),
    sameContent: (before, after) => before.path === after.path && before.hookId === after.hookId && before.methods.join() === after.methods.join(),
  },
});
