import { startRunRoute } from "@/lib/server/run-routes";

export const dynamic = "force-dynamic";

/** Starts a run (lib/server/run-routes.ts; `npm start` serves it past Next's routing, lib/server/direct). */
export const POST = startRunRoute;
