import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor, type ApiClient, type Json } from "./api-client";
import { chain, removeWorkFolders, shellNode, workFolder } from "./fixtures";
import { invitePerson, type JoinedPerson } from "./people-fixtures";
import { setupStudioServer } from "./studio-server";
import { startMailServer, type TestMailServer } from "../support/mail-server";

/**
 * E-mail for a waiting approval (issue 30): each person who may decide it and
 * whose login is an address gets one mail with what would happen and a link
 * that opens the card; the starter, left out by the policy, gets none; a mail
 * server that refuses at first is tried again and the mail arrives once; the
 * security log has each try. Without a mail server, nothing changes.
 */

const SMTP_USER = "studio";
const SMTP_PASSWORD = "smtp-pass-0f3c9a";
let mail: TestMailServer;
let folder: string;

/** A workflow of one shell step under `policy` (default: two approvals), shared with every approver; started by `owner`. */
async function gatedRun(owner: ApiClient, name: string, command: string, policy: Json = { required: 2 }): Promise<{ workflowId: string; runId: string; approval: Json }> {
  const shell = { ...shellNode("shell", folder, command), label: "Clean up", approvals: policy };
  const workflow = { name, nodes: [{ id: "in", kind: "input" }, shell, { id: "out", kind: "output", value: "x" }], edges: chain("in", "shell", "out") };
  const workflowId = (await owner.expect(201, "POST", "/api/workflows", workflow)).workflow.id as string;
  await owner.expect(200, "PUT", `/api/workflows/${workflowId}/shares`, { shares: [{ subject: { role: "approver" }, role: "approver" }] });
  const runId = (await owner.expect(201, "POST", `/api/workflows/${workflowId}/runs`, { inputs: {} })).run.id as string;
  return { workflowId, runId, approval: await owner.waitForApproval(runId) };
}

describe("approval notifications by e-mail", () => {
  beforeAll(async () => {
    mail = await startMailServer({ login: { user: SMTP_USER, password: SMTP_PASSWORD } });
    folder = workFolder("studio-notify-");
  });
  const server = setupStudioServer(() => ({ env: { STUDIO_SMTP_URL: `smtp://${SMTP_USER}:${SMTP_PASSWORD}@127.0.0.1:${mail.port}`, STUDIO_SMTP_FROM: "Studio <studio@example.test>", STUDIO_NOTIFY_CHECK_MS: "200", STUDIO_DEADLINE_CHECK_MS: "200" } }));
  let owner: ApiClient;
  let abe: JoinedPerson;
  let ada: JoinedPerson;

  beforeAll(async () => {
    owner = server.client();
    // The owner's login an address too: as the starter of a run needing two, they are not told.
    await owner.expect(200, "PATCH", "/api/me", { login: "olga@example.test" });
    abe = await invitePerson(owner, "abe@example.test", "approver", "Abe");
    ada = await invitePerson(owner, "ada@example.test", "approver", "Ada");
  });

  afterAll(async () => {
    await mail.close();
    removeWorkFolders();
  });

  it("mails each approver once, with the step, the preview and a link to the card; not the starter; retries a refusal", async () => {
    mail.refuseOnce.add("abe@example.test");
    const { runId, approval } = await gatedRun(owner, "Nightly cleanup", "echo tidy-the-folder");
    const both = await waitFor(() => (mail.received.length >= 2 ? mail.received : undefined), { what: "a mail to each approver", timeoutMs: 30_000 });
    const byAddress = (address: string) => both.filter((each) => each.to === address);
    for (const [address, other] of [
      ["abe@example.test", "Ada"],
      ["ada@example.test", "Abe"],
    ] as const) {
      const [only, ...more] = byAddress(address);
      expect(more).toEqual([]);
      expect(only!.mail.subject).toBe("Nightly cleanup: Clean up wants to run a command");
      expect(only!.mail.from?.text).toContain("studio@example.test");
      const text = only!.mail.text ?? "";
      expect(text).toContain("echo tidy-the-folder");
      expect(text).toContain(`${server.url}/inbox?approval=${approval.id}`);
      expect(text).toContain(`Others who may decide: ${other}.`);
      expect(text).toMatch(/nothing is decided until you decide on its card/);
    }
    expect(both.map((each) => each.to)).not.toContain("olga@example.test");

    const log = async (action: string): Promise<Json[]> => (await owner.expect(200, "GET", `/api/audit?action=${action}`)).entries;
    const sent = await waitFor(async () => {
      const entries = await log("approval-notified");
      return entries.length >= 2 ? entries : undefined;
    }, { what: "both notifications in the security log" });
    expect(sent.map((entry) => entry.detail.person).sort()).toEqual([abe.id, ada.id].sort());
    expect(sent.every((entry) => entry.detail.approval === approval.id)).toBe(true);
    const failed = await log("approval-notification-failed");
    expect(failed).toEqual([expect.objectContaining({ detail: expect.objectContaining({ person: abe.id, approval: approval.id, willRetry: true }) })]);
    expect(String(failed[0]!.detail.error)).toMatch(/451|try again later/);
    // The mail server's password is in neither the log nor the security log.
    expect(server.logs()).not.toContain(SMTP_PASSWORD);
    expect(JSON.stringify([...sent, ...failed])).not.toContain(SMTP_PASSWORD);

    // Decided: the run goes on as ever, and nobody is mailed again.
    for (const person of [abe, ada]) await person.client.expect(200, "POST", `/api/approvals/${approval.id}`, { decision: "approve", digest: approval.digest });
    expect((await owner.waitForRun(runId)).status).toBe("succeeded");
    expect(mail.received).toHaveLength(2);
    // The run's timeline says who was told, how, and that it arrived (the refused try is the card's and the log's, not news).
    const told = (await owner.events(runId)).filter((event) => event.type === "approval-notified").map((event) => event.payload.notification);
    expect(told.map((each) => `${each.channel} ${each.address} ${each.status}`).sort()).toEqual(["email abe@example.test sent", "email ada@example.test sent"]);
    expect(told.map((each) => each.to).sort()).toEqual(["Abe", "Ada"]);
  });

  it("mails the escalation's approver when a deadline escalates an approval, and the first approver only once", async () => {
    const before = mail.received.length;
    const policy = { approvers: [{ kind: "person", personId: abe.id }], deadline: { minutes: 30, then: "escalate", escalateTo: [{ kind: "person", personId: ada.id }], escalateMinutes: 60 } };
    const { approval } = await gatedRun(owner, "Escalating", "echo escalate-me", policy);
    const first = await waitFor(() => (mail.received.length > before ? mail.received.slice(before) : undefined), { what: "the first approver's mail" });
    expect(first.map((each) => each.to)).toEqual(["abe@example.test"]);
    expect(first[0]!.mail.text).toMatch(/Deadline: .* then it goes to the escalation's approvers\./);
    // Half an hour passes: the deadline job escalates it to Ada, who is told.
    const database = server.openDatabase();
    try {
      await database.approval.update({ where: { id: approval.id }, data: { createdAt: new Date(Date.now() - 31 * 60_000) } });
    } finally {
      await database.$disconnect();
    }
    const second = await waitFor(() => (mail.received.length > before + 1 ? mail.received.slice(before + 1) : undefined), { what: "the escalation's mail", timeoutMs: 30_000 });
    expect(second.map((each) => each.to)).toEqual(["ada@example.test"]);
    expect(second[0]!.mail.text).toContain("(escalated: nobody decided in time)");
    expect(second[0]!.mail.text).toContain(`/inbox?approval=${approval.id}`);
    await ada.client.expect(200, "POST", `/api/approvals/${approval.id}`, { decision: "deny", digest: approval.digest });
    expect(mail.received.slice(before).map((each) => each.to)).toEqual(["abe@example.test", "ada@example.test"]);
  });

  it("mails nobody who turned e-mail off on Settings → Account, and the card says who was told", async () => {
    await ada.client.expect(200, "PUT", "/api/me/notifications", { email: false, browser: true, webhook: null });
    const before = mail.received.length;
    const { approval } = await gatedRun(owner, "Quiet for Ada", "echo only-abe");
    const told = await waitFor(() => (mail.received.length > before ? mail.received.slice(before) : undefined), { what: "Abe's mail" });
    const shown = await waitFor(async () => {
      const { approval: seen } = await owner.expect(200, "GET", `/api/approvals/${approval.id}`);
      return seen.notifications.some((each: Json) => each.status === "sent") ? seen.notifications : undefined;
    }, { what: "the mail on the card" });
    expect(shown).toEqual([expect.objectContaining({ channel: "email", to: "Abe", address: "abe@example.test", status: "sent" })]);
    // Another pass or two: still nobody mails Ada.
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect([...told, ...mail.received.slice(before + told.length)].map((each) => each.to)).toEqual(["abe@example.test"]);
    await ada.client.expect(200, "PUT", "/api/me/notifications", { email: true, browser: true, webhook: null });
    await abe.client.expect(200, "POST", `/api/approvals/${approval.id}`, { decision: "deny", digest: approval.digest });
  });
});

describe("without a mail server", () => {
  const server = setupStudioServer();

  beforeAll(() => {
    folder = workFolder("studio-notify-none-");
  });

  afterAll(() => removeWorkFolders());

  it("runs and approvals behave as before, and nothing is queued", async () => {
    const owner = server.client();
    const abe = await invitePerson(owner, "abe@example.test", "approver", "Abe");
    const ada = await invitePerson(owner, "ada@example.test", "approver", "Ada");
    const { runId, approval } = await gatedRun(owner, "No mail", "echo quiet");
    for (const person of [abe, ada]) await person.client.expect(200, "POST", `/api/approvals/${approval.id}`, { decision: "approve", digest: approval.digest });
    expect((await owner.waitForRun(runId)).status).toBe("succeeded");
    const database = server.openDatabase();
    try {
      expect(await database.approvalNotification.count()).toBe(0);
    } finally {
      await database.$disconnect();
    }
  });
});
