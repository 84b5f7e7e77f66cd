import { serveHookRequest } from "@/lib/server/hooks/transport";

export const dynamic = "force-dynamic";

// Webhook deliveries. `npm start` (scripts/serve.mjs) answers /hooks/ before Next routes anything; this route serves them
// under `next dev`, and any that arrive before the studio has booted. Public by design: lib/server/hooks/deliver.ts checks each.
export const GET = serveHookRequest;
export const POST = serveHookRequest;
export const PUT = serveHookRequest;
export const PATCH = serveHookRequest;
export const DELETE = serveHookRequest;
export const OPTIONS = serveHookRequest;
