import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { invitePerson, type JoinedPerson } from "../api/people-fixtures";
import { chain, removeWorkFolders, workFolder, writeFileWorkflow } from "../api/fixtures";
import { setupStudioServer } from "../api/studio-server";
import { runWorkflowCli } from "./cli-process";

/**
 * `npm run workflow -- run WORKFLOW --studio URL` against the real studio,
 * with personal access tokens as a script holds them (STUDIO_TOKEN): a token
 * carrying workflow:run starts a run and prints its output; a run:read token
 * is refused naming workflow:run and starts nothing; a revoked token gets
 * the 401 message; a run that waits for a decision says where to decide it.
 */

const server = setupStudioServer();
let editor: JoinedPerson;
let workflowId: string;
let writerId: string;

/** A person's token with these scopes, as made on their Account page. */
async function tokenWith(name: string, scopes: string[]): Promise<{ token: string; id: string }> {
  const { token, record } = await editor.client.expect(201, "POST", "/api/me/tokens", { name, scopes });
  return { token: token as string, id: record.id as string };
}

const cli = (args: string[], token: string) => runWorkflowCli(args, { STUDIO_TOKEN: token, STUDIO_URL: server.url });

async function runCount(id: string): Promise<number> {
  const { runs } = await server.client().expect(200, "GET", `/api/runs?workflowId=${encodeURIComponent(id)}`);
  return (runs as unknown[]).length;
}

describe("the CLI on a studio, with a personal access token", () => {
  beforeAll(async () => {
    editor = await invitePerson(server.client(), "cleo", "editor");
    const greet = {
      name: "Greet from the CLI",
      nodes: [
        { id: "in", kind: "input", fields: [{ name: "name" }, { name: "times", type: "number", required: false }] },
        { id: "out", kind: "output", value: "hello {{ inputs.name }} x{{ inputs.times }}" },
      ],
      edges: chain("in", "out"),
    };
    workflowId = (await editor.client.expect(201, "POST", "/api/workflows", greet)).workflow.id;
    writerId = (await editor.client.expect(201, "POST", "/api/workflows", writeFileWorkflow(workFolder(), { name: "Write from the CLI" }))).workflow.id;
  });

  afterAll(() => removeWorkFolders());

  it("a token carrying workflow:run starts the run, by name or id, follows it and prints its output", async () => {
    const { token } = await tokenWith("runner", ["workflow:read", "workflow:run", "run:read"]);
    const byName = await cli(["run", "Greet from the CLI", "--input", "name=Ada", "--input", "times=2"], token);
    expect(byName.code, byName.stderr).toBe(0);
    expect(byName.stdout).toMatch(/^Started run \S+ of “Greet from the CLI” \(version 1\) on http:\/\/127\.0\.0\.1:\d+\n/);
    expect(byName.stdout).toContain("[out] succeeded");
    expect(byName.stdout).toContain("Run succeeded.");
    expect(byName.stdout).toMatch(/\nOutput:\nhello Ada x2\n$/);
    const runId = /^Started run (\S+)/.exec(byName.stdout)![1]!;
    const { run } = await server.client().expect(200, "GET", `/api/runs/${runId}`);
    // The run says who started it: the person the token belongs to, and which of their tokens.
    expect(run.startedBy?.name).toBe("Cleo (token runner)");

    const byId = await cli(["run", workflowId, "--input", "name=Bo", "--input", "times=3", "--studio", server.url], token);
    expect(byId.code, byId.stdout + byId.stderr).toBe(0);
    expect(byId.stdout).toMatch(/\nOutput:\nhello Bo x3\n$/);

    const status = await cli(["status", runId], token);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain(`Run ${runId} of “Greet from the CLI” (version 1): succeeded`);
    expect(status.stdout).toContain("hello Ada x2");
  });

  it("a run:read token cannot start a run: the refusal names workflow:run, and no run is made", async () => {
    const { token } = await tokenWith("reader", ["run:read"]);
    const before = await runCount(workflowId);
    const refused = await cli(["run", workflowId, "--input", "name=Ada"], token);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain("Could not start the run: this token does not carry workflow:run.");
    expect(refused.stdout).toBe("");
    expect(await runCount(workflowId)).toBe(before);
  });

  it("a revoked token, or one that never was, gets the 401 message", async () => {
    const { token, id } = await tokenWith("soon revoked", ["workflow:run", "run:read"]);
    await editor.client.expect(200, "DELETE", `/api/me/tokens/${id}`);
    const before = await runCount(workflowId);
    for (const given of [token, "nsp_not-a-token"]) {
      const refused = await cli(["run", workflowId, "--input", "name=Ada"], given);
      expect(refused.code).toBe(4);
      expect(refused.stderr).toContain("The studio refused the token (401): it is not a valid access token, or it has expired or been revoked.");
    }
    expect(await runCount(workflowId)).toBe(before);
  });

  it("a run that waits for a decision says where to decide it; --no-wait exits 3 and status says it waits", async () => {
    const { token } = await tokenWith("writer", ["workflow:run", "run:read"]);
    const waiting = await cli(["run", writerId, "--input", "text=hi", "--no-wait"], token);
    expect(waiting.code, waiting.stderr).toBe(3);
    expect(waiting.stdout).toContain("[write] waits for approval: write (write_file)");
    expect(waiting.stdout).toContain(`decide it in the studio's inbox, ${server.url}/inbox`);
    const runId = /^Started run (\S+)/.exec(waiting.stdout)![1]!;
    const status = await cli(["status", runId], token);
    expect(status.code).toBe(3);
    expect(status.stdout).toContain("awaiting_input");
    expect(status.stdout).toContain(`${server.url}/inbox`);
  });

  it("without --no-wait it keeps waiting while someone decides in the inbox, then prints the output", async () => {
    const { token } = await tokenWith("patient", ["workflow:run", "run:read"]);
    const waitingId = (await editor.client.expect(201, "POST", "/api/workflows", writeFileWorkflow(workFolder(), { name: "Write and wait" }))).workflow.id as string;
    const running = cli(["run", waitingId, "--input", "text=hi"], token);
    // The owner decides, as someone who may decide approvals on it (the editor may not: the one asking is not the one deciding).
    const owner = server.client();
    let approvalId: string | undefined;
    await expect
      .poll(async () => {
        const { approvals } = await owner.expect(200, "GET", "/api/approvals?status=pending");
        approvalId = (approvals as { id: string; workflowId: string }[]).find((approval) => approval.workflowId === waitingId)?.id;
        return approvalId;
      }, { timeout: 60_000 })
      .toBeDefined();
    await owner.expect(200, "POST", `/api/approvals/${approvalId}`, { decision: "once" });
    const done = await running;
    expect(done.code, done.stdout + done.stderr).toBe(0);
    expect(done.stdout).toContain(`decide it in the studio's inbox, ${server.url}/inbox`);
    expect(done.stdout).toContain("Waiting…");
    expect(done.stdout).toMatch(/\nOutput:\nwrote note\.txt\n$/);
  });

  it("mistakes are usage errors (status 2): no token, a name no workflow has", async () => {
    const noToken = await runWorkflowCli(["run", workflowId, "--studio", server.url]);
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain("Set STUDIO_TOKEN to a personal access token");
    const { token } = await tokenWith("lister", ["workflow:read", "workflow:run"]);
    const unknown = await cli(["run", "No such workflow"], token);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("No workflow has the id or the name “No such workflow”");
  });
});
