import { publicRoute } from "@/lib/server/http";
import { startSingleSignOn } from "@/lib/server/access/single-sign-on";

export const dynamic = "force-dynamic";

/** Single sign-on: off to the OpenID Connect provider (OIDC_ISSUER); without one configured, back to the sign-in page saying so. */
export const GET = publicRoute((request: Request) => startSingleSignOn(request));
