import { z } from "zod";
import { HttpError, json, readBody, route } from "@/lib/server/http";
import { clearLoginFailures, loginRetryAfter, recordLoginFailure } from "@/lib/server/login-throttle";
import { createSessionToken, passwordMatches, SESSION_COOKIE, studioPassword } from "@/lib/server/session";

export const dynamic = "force-dynamic";

const LoginBodySchema = z.object({
  password: z.string().min(1, "enter the password").max(1000),
  name: z.string().trim().min(1, "enter your name, so decisions say who made them").max(100),
});

export const POST = route(
  async (request) => {
    const password = studioPassword();
    if (password === null) throw new HttpError(409, "This studio has no password (STUDIO_PASSWORD is not set); there is nothing to sign in to.");
    // One count for the whole studio: it has one password, and X-Forwarded-For is whatever the
    // client sends (Next only fills it in when absent), so counting per address let a guesser
    // rotate the header for unlimited tries.
    const throttleKey = "studio";
    const wait = loginRetryAfter(throttleKey);
    if (wait > 0) throw new HttpError(429, `Too many wrong passwords; try again in ${wait} s.`);
    const body = await readBody(request, LoginBodySchema);
    if (!passwordMatches(body.password, password)) {
      recordLoginFailure(throttleKey);
      throw new HttpError(401, "That password is not right.", {
        issues: [{ path: "password", message: "that password is not right", code: "custom" }],
      });
    }
    clearLoginFailures(throttleKey);
    const { token, maxAgeSeconds } = createSessionToken(body.name, password);
    const secure = new URL(request.url).protocol === "https:" ? "; Secure" : "";
    return json({ name: body.name }, 200, {
      "set-cookie": `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure}`,
    });
  },
  { public: true },
);
