import { z } from "zod";
import { ROLES, type Role } from "@/lib/contracts/roles";
import { markedError } from "@/lib/marked-error";

/**
 * The studio's environment, parsed in one place. Every variable is optional;
 * an empty value counts as unset (a blank line in a .env file is not a setting).
 * Read it with `readEnvironment()` when needed rather than at import time, so
 * tests and scripts can set variables first.
 */

const unsetWhenEmpty = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);

const SECRET_KEY_BYTES = 32;

/** How often a background job passes: 100 ms to 10 minutes. */
const everyMs = (description: string, fallback: number) =>
  z.preprocess(
    unsetWhenEmpty,
    z.coerce
      .number()
      .int("expected a whole number")
      .min(100, "expected 100 to 600000 milliseconds")
      .max(600_000, "expected 100 to 600000 milliseconds")
      .describe(description)
      .default(fallback),
  );

export const EnvironmentSchema = z.object({
  STUDIO_DATA_DIR: z.preprocess(
    unsetWhenEmpty,
    z.string().describe("The folder the studio keeps its database and secret key in; default <working directory>/.data.").optional(),
  ),
  DATABASE_URL: z.preprocess(
    unsetWhenEmpty,
    z
      .string()
      .regex(
        /^(file:.|postgres(ql)?:\/\/.)/i,
        "expected a SQLite file URL such as file:/var/lib/studio/studio.db, or a PostgreSQL URL such as postgresql://studio:password@db:5432/studio",
      )
      .refine((url) => !/^file:/i.test(url) || (url !== "file::memory:" && !url.includes("?")), {
        message: "expected a plain SQLite file URL (no :memory:, no ?options), such as file:/var/lib/studio/studio.db",
      })
      .describe("The database: a SQLite file (default file:<STUDIO_DATA_DIR>/studio.db) or postgresql://… for PostgreSQL.")
      .optional(),
  ),
  STUDIO_SECRET_KEY: z.preprocess(
    unsetWhenEmpty,
    z
      .string()
      .trim()
      .refine((value) => isBase64OfLength(value, SECRET_KEY_BYTES), {
        message: `expected the base64 of ${SECRET_KEY_BYTES} random bytes (make one with: openssl rand -base64 32)`,
      })
      .describe("The key that encrypts stored secrets; default a key file in the data folder.")
      .optional(),
  ),
  STUDIO_PASSWORD: z.preprocess(
    unsetWhenEmpty,
    z.string().describe("The password that protects the studio, if set.").optional(),
  ),
  STUDIO_TOKEN: z.preprocess(
    unsetWhenEmpty,
    z
      .string()
      .trim()
      .min(24, "expected at least 24 characters (make one with: openssl rand -base64 32)")
      .max(512, "expected at most 512 characters")
      .regex(/^[\x21-\x7e]+$/, "expected printable characters without spaces")
      .describe("The access token for scripts and sign-in links; default a token file generated in the data folder.")
      .optional(),
  ),
  STUDIO_PUBLIC_URL: z.preprocess(
    unsetWhenEmpty,
    z
      .url({ protocol: /^https?$/, error: "expected the address people open, such as https://studio.example.com" })
      .describe("The address people open the studio at, when it is not http://127.0.0.1:<PORT>; its host name is served.")
      .optional(),
  ),
  STUDIO_ALLOWED_HOSTS: z.preprocess(
    unsetWhenEmpty,
    z
      .string()
      .transform((value) => value.split(",").map((host) => host.trim().toLowerCase()).filter((host) => host !== ""))
      .pipe(z.array(z.string().regex(/^[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/, "expected host names such as studio.lan or studio.lan:3000, separated by commas")))
      .describe("More host names (besides localhost, 127.0.0.1 and [::1]) that requests may be addressed to, comma-separated.")
      .default([]),
  ),
  STUDIO_ROLE: z.preprocess(
    unsetWhenEmpty,
    z
      .enum(["all", "web", "worker"], { error: "expected all, web or worker" })
      .describe("What this process does: serve and drive runs (all, the default), only serve (web), or only drive runs (worker; `npm run worker`). web and worker need PostgreSQL.")
      .default("all"),
  ),
  STUDIO_SQLITE_WRITER: z.preprocess(
    unsetWhenEmpty,
    z
      .enum(["thread", "inline"], { error: "expected thread or inline" })
      .describe("On SQLite, where runs' changes are written: on a thread of their own (thread, the default: requests are served meanwhile) or on the thread that serves requests (inline).")
      .default("thread"),
  ),
  STUDIO_WORKER_CONCURRENCY: z.preprocess(
    unsetWhenEmpty,
    z.coerce
      .number()
      .int("expected a whole number")
      .min(1, "expected 1 to 64 runs at a time")
      .max(64, "expected 1 to 64 runs at a time")
      .describe("How many runs one process drives at a time on PostgreSQL.")
      .default(8),
  ),
  STUDIO_DEADLINE_CHECK_MS: everyMs("How often waiting approvals are checked against their deadlines, in milliseconds.", 15_000),
  STUDIO_SMTP_URL: z.preprocess(
    unsetWhenEmpty,
    z
      .string()
      .refine((value) => URL.canParse(value) && /^smtps?:$/.test(new URL(value).protocol) && new URL(value).hostname !== "", {
        error: "expected the mail server as smtp://user:password@host:587 (STARTTLS when offered) or smtps://user:password@host:465",
      })
      .describe("The mail server approvals' notifications are sent through, smtp://user:password@host:port or smtps://…; unset, no mail is sent.")
      .optional(),
  ),
  STUDIO_SMTP_FROM: z.preprocess(
    unsetWhenEmpty,
    z
      .string()
      .max(320)
      .regex(/^[^\r\n]+$/, "expected one line, such as Studio <studio@example.com>")
      .describe("The sender of notifications, such as Studio <studio@example.com>; default studio@<the mail server's host>.")
      .optional(),
  ),
  STUDIO_NOTIFY_CHECK_MS: everyMs("How often waiting approvals are looked at for notifications to send (and refused ones retried), in milliseconds.", 5_000),
  STUDIO_NOTIFY_ALLOW_LOCAL: z.preprocess(
    unsetWhenEmpty,
    z
      .string()
      .transform((value) => value.split(",").map((host) => host.trim().toLowerCase()).filter((host) => host !== ""))
      .pipe(z.array(z.string().regex(/^[a-z0-9.-]+(:\d{1,5})?$|^\[?[0-9a-f:.]+\]?(:\d{1,5})?$/, "expected host names or addresses such as hooks.lan or 10.0.0.5:8080, separated by commas")))
      .describe("Hosts on this machine or its network (host, address, host:port) that approval webhooks may be sent to; others there are refused, as the HTTP tool refuses them.")
      .default([]),
  ),
  PORT: z.preprocess(
    unsetWhenEmpty,
    z.coerce
      .number()
      .int("expected a whole number")
      .min(1, "expected a port from 1 to 65535")
      .max(65_535, "expected a port from 1 to 65535")
      .default(3000),
  ),
  HOST: z.preprocess(unsetWhenEmpty, z.string().min(1).default("127.0.0.1")),
  OIDC_ISSUER: z.preprocess(
    unsetWhenEmpty,
    z
      .url({ protocol: /^https?$/, error: "expected the identity provider's issuer URL, such as https://login.example.com/realms/team" })
      .refine((url) => url.startsWith("https:") || isLoopbackUrl(url), "expected https (plain http only for a provider on this machine)")
      .describe("Single sign-on: the OpenID Connect provider's issuer URL. With it, the sign-in page offers the provider.")
      .optional(),
  ),
  OIDC_CLIENT_ID: z.preprocess(unsetWhenEmpty, z.string().max(500).describe("Single sign-on: the studio's client id at the provider.").optional()),
  OIDC_CLIENT_SECRET: z.preprocess(unsetWhenEmpty, z.string().max(2000).describe("Single sign-on: the studio's client secret at the provider.").optional()),
  OIDC_GROUPS_CLAIM: z.preprocess(unsetWhenEmpty, z.string().max(200).describe("Single sign-on: the claim that lists a person's groups; default groups.").default("groups")),
  OIDC_ROLE_MAP: z.preprocess(
    unsetWhenEmpty,
    z
      .string()
      .transform((value) => value.split(",").map((pair) => pair.trim()).filter((pair) => pair !== ""))
      .pipe(
        z.array(
          z
            .string()
            .regex(new RegExp(`^[^=]+=(${ROLES.join("|")})$`), `expected group=role pairs separated by commas, each role one of ${ROLES.join(", ")}`)
            .transform((pair) => {
              const at = pair.lastIndexOf("=");
              return { group: pair.slice(0, at).trim(), role: pair.slice(at + 1) as Role };
            }),
        ),
      )
      .describe("Single sign-on: which provider group gives which role, e.g. studio-admins=admin,builders=editor; the highest role a person's groups give wins.")
      .default([]),
  ),
  OIDC_DEFAULT_ROLE: z.preprocess(
    unsetWhenEmpty,
    z.enum(ROLES, { error: `expected one of ${ROLES.join(", ")}` }).describe("Single sign-on: the role of someone in no mapped group; unset, they are refused.").optional(),
  ),
  OIDC_LABEL: z.preprocess(unsetWhenEmpty, z.string().max(60).describe('Single sign-on: the provider\'s name on the sign-in button ("Sign in with …"); default single sign-on.').default("single sign-on")),
}).superRefine((environment, context) => {
  if (!environment.OIDC_ISSUER) return;
  for (const variable of ["OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET"] as const) {
    if (!environment[variable]) context.addIssue({ code: "custom", path: [variable], message: "expected a value: single sign-on (OIDC_ISSUER) needs the studio's client id and secret at the provider" });
  }
});

export type Environment = z.infer<typeof EnvironmentSchema>;

/** A malformed environment variable; the message names it and says what it should hold. */
export class EnvironmentError extends markedError("neurosurfer.environment", "EnvironmentError") {
  constructor(
    message: string,
    readonly variables: string[],
  ) {
    super(message);
  }
}

/** Parses the studio's variables from `source` (default `process.env`); throws an `EnvironmentError` naming each bad one. */
export function readEnvironment(source: Readonly<Record<string, string | undefined>> = process.env): Environment {
  const result = EnvironmentSchema.safeParse(source);
  if (result.success) return result.data;
  const variables = [...new Set(result.error.issues.map((issue) => String(issue.path[0])))];
  const lines = result.error.issues.map((issue) => `${String(issue.path[0])}: ${issue.message}`);
  throw new EnvironmentError(`Invalid environment: ${lines.join("; ")}. Fix or unset the variable and start again.`, variables);
}

function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname;
  return host === "localhost" || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host);
}

function isBase64OfLength(value: string, bytes: number): boolean {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return false;
  return Buffer.from(value, "base64").length === bytes;
}
