import { HttpError, json, publicRoute, readBody } from "@/lib/server/http";
import { signIn } from "@/lib/server/access/sign-in";
import { SignInBodySchema } from "@/lib/validations/sign-in";

export const dynamic = "force-dynamic";

/** Signs a browser in with the password (and a name) or the access token; sets the session cookie. */
export const POST = publicRoute(async (request) => {
  const body = await readBody(request, SignInBodySchema);
  const result = await signIn(
    body.password ? { kind: "password", password: body.password, name: body.name! } : { kind: "token", token: body.token!, name: body.name, method: "token" },
    request,
  );
  if (!result.ok) {
    const issues = result.field ? [{ path: result.field, message: result.message.replace(/\.$/, ""), code: "custom" }] : [];
    throw new HttpError(result.status, result.message, { issues });
  }
  return json({ name: result.person }, 200, { "set-cookie": result.setCookie });
});
