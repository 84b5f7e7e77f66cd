import { publicRoute } from "@/lib/server/http";
import { finishSingleSignOn } from "@/lib/server/access/single-sign-on";

export const dynamic = "force-dynamic";

/** Single sign-on: the provider's answer, checked, and the person it names signed in (made on their first visit). */
export const GET = publicRoute((request: Request) => finishSingleSignOn(request));
