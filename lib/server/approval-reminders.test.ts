import { afterAll, describe, expect, it } from "vitest";
import type { DatabaseProvider } from "@/lib/persistence/database-provider";
import { newId } from "@/lib/persistence/ids";
import { findRunnableVersion, insertRun } from "@/lib/persistence/run-queries";
import { openTempDatabase, type TempDatabase } from "@/lib/persistence/temp-database";
import { createWorkflow } from "@/lib/persistence/workflow-store";
import { notificationPass, passOptions, reminderAt } from "./approval-notifications";

/**
 * The outbox on a real database (SQLite and PostgreSQL): two processes' passes
 * at once write and send each round once (the unique row per approval,
 * person, round and channel, and the conditional take), the reminder goes
 * when a fifth of the deadline's time is left, and a person who turned e-mail
 * off is not mailed.
 */

const temps: TempDatabase[] = [];
afterAll(async () => {
  for (const temp of temps) await temp.close();
});

describe("reminderAt", () => {
  it("is when 20 % of the time is left, at least a minute before; none when the deadline is shorter than that", () => {
    expect(new Date(reminderAt("2026-12-04T10:00:00.000Z", "2026-12-04T11:40:00.000Z")!).toISOString()).toBe("2026-12-04T11:20:00.000Z");
    expect(new Date(reminderAt("2026-12-04T10:00:00.000Z", "2026-12-04T10:02:00.000Z")!).toISOString()).toBe("2026-12-04T10:01:00.000Z");
    expect(reminderAt("2026-12-04T10:00:00.000Z", "2026-12-04T10:01:00.000Z")).toBeNull();
  });
});

describe.each<DatabaseProvider>(["sqlite", "postgresql"])("notification passes on %s", (provider) => {
  it("sends the first round and, near the deadline, one reminder, once each, with two passes running at once", async () => {
    const temp = await openTempDatabase({ provider });
    temps.push(temp);
    const database = temp.database;
    await database.person.create({ data: { id: newId(), login: "olga@example.test", displayName: "Olga", role: "owner" } });
    await database.person.create({ data: { id: newId(), login: "ada@example.test", displayName: "Ada", role: "admin", notifyByEmail: false } });
    const workflow = await createWorkflow(
      {
        name: "Nightly",
        nodes: [
          { id: "in", kind: "input" },
          { id: "shell", kind: "tool", tool: "run_command", operation: "run", settings: { root: "/tmp" }, arguments: { command: "echo hi" }, approvals: { deadline: { minutes: 10, then: "deny" } } },
        ],
        edges: [{ id: "e", source: "in", target: "shell" }],
      },
      database,
    );
    const run = await insertRun(await findRunnableVersion(workflow.id, undefined, database), {}, database);
    const approvalId = newId();
    await database.approval.create({ data: { id: approvalId, runId: run.id, nodeId: "shell", key: "k", kind: "shell", tool: "run_command", operation: "run", preview: "echo hi" } });

    const mails: { to: string; subject: string }[] = [];
    let clock = Date.now();
    const options = passOptions({
      database,
      smtpUrl: "smtp://mail.example.test:587",
      from: "studio@example.test",
      publicUrl: "http://127.0.0.1:3000",
      everyMs: 1000,
      log: () => undefined,
      webhooks: { allowLocal: [] },
      send: async ({ to, subject }) => {
        mails.push({ to, subject });
      },
      now: () => clock,
    });
    const twoProcesses = () => Promise.all([notificationPass(options), notificationPass(options)]);

    await twoProcesses();
    await twoProcesses();
    expect(mails).toEqual([{ to: "olga@example.test", subject: "Nightly: run_command wants to run a command" }]);
    const rows = await database.approvalNotification.findMany({ where: { approvalId }, orderBy: { personId: "asc" } });
    expect(rows.map((row) => [row.round, row.channel, row.status, row.lastError])).toEqual(
      expect.arrayContaining([
        ["requested", "email", "sent", null],
        ["requested", "email", "dropped", "they turned e-mail off"],
      ]),
    );

    // Seven minutes in: not yet. Eight (two of ten left): the reminder, once, however many passes.
    clock += 7 * 60_000;
    await twoProcesses();
    expect(mails).toHaveLength(1);
    clock += 60_000 + 1_000;
    await twoProcesses();
    await twoProcesses();
    expect(mails).toEqual([
      { to: "olga@example.test", subject: "Nightly: run_command wants to run a command" },
      { to: "olga@example.test", subject: "Reminder: Nightly: run_command wants to run a command" },
    ]);
    expect(await database.approvalNotification.count({ where: { approvalId, round: "reminder", status: "sent" } })).toBe(1);
    const log = await database.auditEntry.findMany({ where: { action: "approval-notified" } });
    expect(log.map((entry) => JSON.parse(entry.detail) as { round: string; channel: string; to: string })).toEqual([
      expect.objectContaining({ round: "requested", channel: "email", to: "olga@example.test" }),
      expect.objectContaining({ round: "reminder", channel: "email", to: "olga@example.test" }),
    ]);
  });
});
