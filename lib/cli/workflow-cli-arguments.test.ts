import { describe, expect, it } from "vitest";
import { parseWorkflowCliArguments, UsageError } from "./workflow-cli-arguments";

const STUDIO = { STUDIO_URL: "http://127.0.0.1:3000/", STUDIO_TOKEN: "nsp_example" };

function usageMessage(argv: string[], environment: Record<string, string> = {}): string {
  try {
    parseWorkflowCliArguments(argv, environment);
  } catch (error) {
    if (UsageError.isInstance(error)) return error.message;
    throw error;
  }
  throw new Error(`expected a usage error for ${argv.join(" ")}`);
}

describe("the workflow CLI's arguments", () => {
  it("runs a file here without a studio", () => {
    const parsed = parseWorkflowCliArguments(["run", "flow.json", "-i", "city=Lahore"], {});
    expect(parsed).toMatchObject({ help: false, mode: "local", command: { file: "flow.json", inputs: { city: "Lahore" } } });
  });

  it("runs a stored workflow on the studio STUDIO_URL or --studio names, with the token from STUDIO_TOKEN", () => {
    expect(parseWorkflowCliArguments(["run", "Daily report", "--input", "n=3", "--no-wait"], STUDIO)).toEqual({
      help: false,
      mode: "studio",
      command: { command: "run", workflow: "Daily report", studio: "http://127.0.0.1:3000", token: "nsp_example", inputs: { n: "3" }, wait: false, json: false },
    });
    const flagged = parseWorkflowCliArguments(["status", "run_1", "--studio", "https://studio.example"], { STUDIO_TOKEN: "nsp_example" });
    expect(flagged).toMatchObject({ mode: "studio", command: { command: "status", runId: "run_1", studio: "https://studio.example" } });
  });

  it("says what is wrong: no token, a file given to a studio, options of the other mode, a bad address", () => {
    expect(usageMessage(["run", "wf_1", "--studio", "http://127.0.0.1:3000"])).toMatch(/^Set STUDIO_TOKEN to a personal access token/);
    expect(usageMessage(["run", "flow.json"], STUDIO)).toContain("looks like a workflow file");
    expect(usageMessage(["run", "wf_1", "--auto-approve"], STUDIO)).toMatch(/^--auto-approve is for workflow files run here/);
    expect(usageMessage(["run", "flow.json", "--no-wait"])).toMatch(/^--no-wait is for runs on a studio/);
    expect(usageMessage(["status", "run_1"])).toContain("add --studio URL, or set STUDIO_URL");
    expect(usageMessage(["run", "wf_1", "--studio", "ftp://example"], STUDIO)).toContain("expected an http:// or https:// address");
  });
});
