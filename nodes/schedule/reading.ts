import cronstrue from "cronstrue";
import type { ScheduleSpec } from "./slots";

/** A schedule in words, as the card and the inspector say it: "Every 15 minutes", "At 09:00, Monday through Friday". */
export function scheduleReading(spec: Pick<ScheduleSpec, "form" | "everyMinutes" | "cron">): string {
  if (spec.form === "every") return everyReading(spec.everyMinutes);
  try {
    // Croner reads day-of-month and day-of-week with OR, as classic cron does; cronstrue says it the same way by default.
    return cronstrue.toString(spec.cron.trim(), { use24HourTimeFormat: true, throwExceptionOnParseError: true });
  } catch {
    return "Not a cron expression yet";
  }
}

function everyReading(minutes: number): string {
  if (!Number.isInteger(minutes) || minutes < 1) return "Every … minutes";
  if (minutes === 1) return "Every minute";
  if (minutes % 1440 === 0) return minutes === 1440 ? "Every day at 00:00 UTC" : `Every ${minutes / 1440} days at 00:00 UTC`;
  if (minutes % 60 === 0) return minutes === 60 ? "Every hour, on the hour" : `Every ${minutes / 60} hours`;
  return `Every ${minutes} minutes`;
}
