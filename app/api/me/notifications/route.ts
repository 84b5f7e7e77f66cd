import { NotificationChoicesBodySchema } from "@/lib/contracts/notifications";
import { json, readBody, route } from "@/lib/server/http";
import { changeNotificationChoices, notificationChoices } from "@/lib/server/notification-settings";

export const dynamic = "force-dynamic";

/** How the caller is told of approvals that wait for them: e-mail, browser notifications, their own webhook (secret masked). */
export const GET = route("GET /api/me/notifications", async (_request, _context, principal) => json(await notificationChoices(principal)));

/** Changes them; 422 naming each field (`webhook.url`, `webhook.secret`) for a bad body, nothing changed. */
export const PUT = route("PUT /api/me/notifications", async (request, _context, principal) => json(await changeNotificationChoices(request, principal, await readBody(request, NotificationChoicesBodySchema))));
