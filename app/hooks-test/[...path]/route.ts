export const dynamic = "force-dynamic";

// Test deliveries (/hooks-test/…), answered only while an editor listens on the webhook: the same handler as /hooks/, which tells
// the two apart by the path (lib/server/hooks/transport.ts). Under `npm start`, scripts/serve.mjs hands them over before Next routes.
export { DELETE, GET, OPTIONS, PATCH, POST, PUT } from "../../hooks/[...path]/route";
