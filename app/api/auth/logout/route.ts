import { json, route } from "@/lib/server/http";
import { SESSION_COOKIE } from "@/lib/server/session";

export const dynamic = "force-dynamic";

export const POST = route(
  async () => json({ signedOut: true }, 200, { "set-cookie": `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0` }),
  { public: true },
);
