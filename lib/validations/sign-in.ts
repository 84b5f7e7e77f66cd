import { z } from "zod";

/**
 * What the sign-in form and the confirmation dialog send: the password (with a
 * name, recorded on decisions) when the studio has one, or the access token.
 */
export const SignInBodySchema = z
  .object({
    password: z.string().max(1000).optional(),
    token: z.string().trim().max(1000).optional(),
    name: z.string().trim().max(100).optional(),
  })
  .superRefine((body, ctx) => {
    if (!body.password && !body.token) ctx.addIssue({ code: "custom", path: ["password"], message: "enter the password or the access token" });
    if (body.password && body.token) ctx.addIssue({ code: "custom", path: ["token"], message: "send the password or the access token, not both" });
    if (body.password && !body.name) ctx.addIssue({ code: "custom", path: ["name"], message: "enter your name, so decisions say who made them" });
  });
export type SignInBody = z.infer<typeof SignInBodySchema>;

/** Proving who you are again before a privileged change: the password or the token. */
export const ConfirmIdentityBodySchema = z
  .object({ password: z.string().max(1000).optional(), token: z.string().trim().max(1000).optional() })
  .refine((body) => Boolean(body.password) !== Boolean(body.token), { path: ["password"], message: "enter the password or the access token" });

/** What "Confirm it is you" may ask this person for: their password (their own, or for the first owner the studio's), the access token (the first owner's). */
export interface IdentityProofs {
  password: boolean;
  token: boolean;
}
