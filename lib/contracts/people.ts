import { z } from "zod";
import { RoleSchema, ScopeSchema, ShareRoleSchema } from "./roles";

/**
 * People, invitations, personal access tokens and workflow shares as the API
 * and the People page see them. Bodies are strict: a field the caller may not
 * set (ownerId, createdBy, a role on a body that does not take one) is refused
 * by name, never quietly applied or dropped.
 */

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 200;

/**
 * What is wrong with a new password, in words for the form, or null. Length
 * is what matters (NIST SP 800-63B): at least 12 characters, no composition
 * rules, and not the person's own sign-in name. The form and the server both
 * ask this.
 */
export function passwordProblem(password: string, login: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `use at least ${MIN_PASSWORD_LENGTH} characters (this has ${password.length}); a few words together are easy to remember`;
  if (password.length > MAX_PASSWORD_LENGTH) return `use at most ${MAX_PASSWORD_LENGTH} characters`;
  if (password.trim().toLowerCase() === login.trim().toLowerCase()) return "use something other than your sign-in name";
  if (new Set(password).size < 4) return "use more than a few different characters";
  return null;
}

export const LOGIN_PATTERN = /^[a-z0-9][a-z0-9._@+-]{1,99}$/;

export const PersonViewSchema = z.object({
  id: z.string(),
  login: z.string(),
  displayName: z.string(),
  role: RoleSchema,
  active: z.boolean(),
  hasPassword: z.boolean(),
  createdAt: z.string(),
  lastSignInAt: z.string().nullable(),
});
export type PersonView = z.infer<typeof PersonViewSchema>;

export const InviteBodySchema = z.strictObject({
  role: RoleSchema,
  note: z.string().trim().max(200).default(""),
  /** How long the link works. */
  expiresInHours: z.number().int().min(1).max(24 * 30).default(72),
});
export type InviteBody = z.infer<typeof InviteBodySchema>;

export const INVITATION_STATUSES = ["pending", "accepted", "expired", "revoked"] as const;

export const InvitationViewSchema = z.object({
  id: z.string(),
  role: RoleSchema,
  note: z.string(),
  invitedBy: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  status: z.enum(INVITATION_STATUSES),
});
export type InvitationView = z.infer<typeof InvitationViewSchema>;

/** A sign-in name: what a person types to sign in. */
export const LoginSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(LOGIN_PATTERN, "use 2 to 100 letters, digits and . _ @ + - (an e-mail address works), starting with a letter or digit");

/** The name others see: in the header, the People page, the security log, who started a run. */
export const DisplayNameSchema = z.string().trim().min(1, "enter the name others will see").max(100, "use at most 100 characters");

export const AcceptInvitationBodySchema = z.strictObject({
  secret: z.string().min(10).max(200),
  login: LoginSchema,
  displayName: DisplayNameSchema,
  password: z.string().max(MAX_PASSWORD_LENGTH),
});
export type AcceptInvitationBody = z.infer<typeof AcceptInvitationBodySchema>;

export const ChangePersonBodySchema = z
  .strictObject({ role: RoleSchema.optional(), active: z.boolean().optional() })
  .refine((body) => body.role !== undefined || body.active !== undefined, { message: "send a role or active", path: ["role"] });
export type ChangePersonBody = z.infer<typeof ChangePersonBodySchema>;

/** Who is asking, as GET /api/me answers: their person, how they came in, and what this credential may do. */
export const MeViewSchema = z.object({
  person: PersonViewSchema,
  via: z.enum(["session", "token", "personal-token"]),
  /** A personal token's name when the request carried one. */
  tokenName: z.string().nullable(),
  /** What this credential may do: the role's scopes in a browser, a token's own (never more than the role's). */
  scopes: z.array(ScopeSchema),
});
export type MeView = z.infer<typeof MeViewSchema>;

/** PATCH /api/me: the caller's own sign-in name or shown name; never their role. */
export const ChangeMeBodySchema = z
  .strictObject({ login: LoginSchema.optional(), displayName: DisplayNameSchema.optional() })
  .refine((body) => body.login !== undefined || body.displayName !== undefined, { message: "send a login or a displayName", path: ["login"] });
export type ChangeMeBody = z.infer<typeof ChangeMeBodySchema>;

/** The Account page's name form: the shown name alone (PATCH /api/me takes it as is). */
export const ChangeNameBodySchema = z.strictObject({ displayName: DisplayNameSchema });

/**
 * PUT /api/me/password. `currentPassword` is asked of everyone who has one;
 * the first owner who came in by the sign-in link and has none sets theirs
 * after a recent sign-in instead.
 */
export const SetPasswordBodySchema = z.strictObject({
  currentPassword: z.string().max(MAX_PASSWORD_LENGTH).optional(),
  newPassword: z.string().max(MAX_PASSWORD_LENGTH),
});
export type SetPasswordBody = z.infer<typeof SetPasswordBodySchema>;

/** How long a new token works, as the token form offers it; null: until it is revoked. */
export const TOKEN_EXPIRY_DAYS = [7, 30, 90, null] as const;

export const CreateTokenBodySchema = z.strictObject({
  name: z.string().trim().min(1, "give the token a name: say what will use it (a script, the CLI, an MCP client)").max(100, "use at most 100 characters"),
  scopes: z.array(ScopeSchema).min(1, "choose at least one scope").max(20),
  /** Days until it stops working; null for a token that does not expire (say why in its name). */
  expiresInDays: z.number().int().min(1).max(366).nullable().default(90),
});
export type CreateTokenBody = z.infer<typeof CreateTokenBodySchema>;

export const TokenViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(ScopeSchema),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type TokenView = z.infer<typeof TokenViewSchema>;

/** Who a workflow is shared with: one person, or everyone whose studio role is this one. */
export const ShareSubjectSchema = z.union([z.strictObject({ personId: z.string().min(1).max(200) }), z.strictObject({ role: RoleSchema })]);

export const WorkflowShareSchema = z.strictObject({ subject: ShareSubjectSchema, role: ShareRoleSchema });
export type WorkflowShare = z.infer<typeof WorkflowShareSchema>;

export const PutSharesBodySchema = z.strictObject({ shares: z.array(WorkflowShareSchema).max(500) });

export const WorkflowShareViewSchema = z.object({
  subject: z.union([z.object({ personId: z.string(), displayName: z.string() }), z.object({ role: RoleSchema })]),
  role: ShareRoleSchema,
  createdBy: z.string(),
  createdAt: z.string(),
});
export type WorkflowShareView = z.infer<typeof WorkflowShareViewSchema>;
