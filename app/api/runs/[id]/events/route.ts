import { runEventsRoute } from "@/lib/server/run-routes";

export const dynamic = "force-dynamic";

/** A run's events as Server-Sent Events (lib/server/run-routes.ts; `npm start` serves it past Next's routing, lib/server/direct). */
export const GET = runEventsRoute;
