import { createInterface } from "node:readline/promises";
import { previewText, toVisibleString } from "@/lib/tools";
import { NOBODY_TO_ASK } from "@/lib/workflow/approvals/approval-io-handler";
import type { ApprovalDecisionInput, ApprovalKind, ApprovalRecord } from "@/lib/workflow/run-types";
import { wrapForTerminal } from "./wrap-for-terminal";

/** Decides one approval of a run; may print what it decided or ask someone. */
export type Approver = (
  approval: Pick<ApprovalRecord, "id" | "kind" | "nodeId" | "tool" | "operation" | "preview"> & Partial<Pick<ApprovalRecord, "effect">>,
) => Promise<ApprovalDecisionInput>;

/** What a step refused because nobody could be asked is told to do (the gate says nobody was there to approve). */
export const NO_PERSON_FEEDBACK = "Run the workflow on a terminal to be asked, or with --auto-approve for trusted scripts.";
export const AUTO_APPROVE_ANSWER = "(no answer: auto-approve)";
const CLI_NAME = "workflow-cli";

/** --auto-approve: writes once, commands, requests, MCP calls and plans approved, questions answered with nothing. */
export function autoApprovalDecision(kind: ApprovalKind): ApprovalDecisionInput {
  const decidedBy = `${CLI_NAME} --auto-approve`;
  switch (kind) {
    case "write":
      return { decision: "once", feedback: null, decidedBy };
    case "ask":
      return { decision: "answer", feedback: AUTO_APPROVE_ANSWER, decidedBy };
    case "shell":
    case "network":
    case "mcp":
    case "plan":
      return { decision: "approve", feedback: null, decidedBy };
  }
}

export const autoApprover: Approver = async (approval) => autoApprovalDecision(approval.kind);

/** A tool's title by its name ("write_file" → "Write a File"), when the host knows it. */
export type ToolTitleOf = (tool: string) => string | undefined;

/**
 * What the terminal shows before asking: a sentence saying what is asked and
 * by which tool, and the preview, every control, escape, carriage return and
 * bidi character marked (the same rules as the browser's card), wrapped to
 * the terminal's width.
 *
 * @example
 *   // ── Approve the write to reports/summary.md by Write a File (write_file)? ──
 */
export function approvalPrompt(approval: Parameters<Approver>[0], columns: number, titleOf: ToolTitleOf = () => undefined): string {
  const name = approval.tool ? `${approval.tool}${approval.operation ? ` ${approval.operation}` : ""}` : null;
  const title = approval.tool ? titleOf(approval.tool) : undefined;
  const who = name === null ? `the step ${approval.nodeId}` : title ? `${title} (${name})` : name;
  const shown = approval.effect ? previewText(approval.effect) : toVisibleString(approval.preview);
  const header = `── ${toVisibleString(headline(approval, who))} ──`;
  return `\n${wrapForTerminal(`${header}\n${shown}`, columns)}\n\n`;
}

function headline(approval: Parameters<Approver>[0], who: string): string {
  const effect = approval.effect;
  switch (approval.kind) {
    case "ask":
      return `A question from ${who}`;
    case "write":
      return effect?.kind === "file-change" || effect?.kind === "file-replace" ? `Approve the write to ${effect.path} by ${who}?` : `Approve the write by ${who}?`;
    case "shell":
      return `Approve running this command by ${who}?`;
    case "network":
      return `Approve this request by ${who}?`;
    case "mcp":
      return `Approve this call by ${who}?`;
    case "plan":
      return "Approve this plan?";
  }
}

function columnsOf(output: NodeJS.WritableStream): number {
  const columns = (output as { columns?: unknown }).columns;
  return typeof columns === "number" && columns > 0 ? columns : 80;
}

/** No --auto-approve and no terminal: deny as nobody (the step is told nobody was there, not that a person refused). */
export const denyingApprover: Approver = async () => ({ decision: "deny", feedback: NO_PERSON_FEEDBACK, decidedBy: NOBODY_TO_ASK });

/** Said once the terminal's input has ended (Ctrl-D): the run goes on waiting, for decisions made in the studio. */
export const INPUT_ENDED_NOTICE =
  "\nThis terminal's input has ended (Ctrl-D): nothing more can be answered here. The run waits for the decisions in the studio's inbox; press Ctrl-C to cancel it.\n";

/**
 * Asks the person at the terminal, one approval at a time (concurrent branches
 * queue up). `close` ends any question still open. Once the input ends
 * (Ctrl-D) no more is asked here: it says so, and leaves the approvals to the
 * studio's inbox, whose decisions the run finds by itself.
 */
export function terminalApprover(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  onInterrupt: () => void,
  titleOf: ToolTitleOf = () => undefined,
): { approver: Approver; close: () => void } {
  const terminal = createInterface({ input, output, terminal: true });
  // Ctrl-C while a question is open reaches the interface, not the process.
  terminal.on("SIGINT", onInterrupt);
  const asking = new AbortController();
  let queue: Promise<unknown> = Promise.resolve();
  const decidedBy = `${process.env.USER ?? "someone"} (terminal)`;
  let inputEnded = false;
  let closing = false;
  let endInput = () => {};
  // Questions queued behind one that can no longer be answered go on once the input ends, each to say so.
  const ended = new Promise<void>((resolve) => (endInput = resolve));
  terminal.on("close", () => {
    if (closing) return;
    inputEnded = true;
    endInput();
    output.write(INPUT_ENDED_NOTICE);
  });
  // An approval nobody here can answer any more: the studio's decision reaches the run without this promise.
  const waitForTheInbox = () => new Promise<never>(() => {});

  const question = async (prompt: string): Promise<string> => {
    if (inputEnded) return waitForTheInbox();
    try {
      return await terminal.question(prompt, { signal: asking.signal });
    } catch (error) {
      if (inputEnded) return waitForTheInbox();
      throw error;
    }
  };

  async function ask(approval: Parameters<Approver>[0]): Promise<ApprovalDecisionInput> {
    output.write(approvalPrompt(approval, columnsOf(output), titleOf));
    if (inputEnded) output.write("Decide it in the studio's inbox.\n");
    if (approval.kind === "ask") {
      return { decision: "answer", feedback: await question("Your answer: "), decidedBy };
    }
    const isWrite = approval.kind === "write";
    for (;;) {
      const answer = (await question(isWrite ? "[o]nce / [a]lways / [d]eny? " : "[y]es / [n]o? ")).trim().toLowerCase();
      if (isWrite && (answer === "o" || answer === "once")) return { decision: "once", feedback: null, decidedBy };
      if (isWrite && (answer === "a" || answer === "always")) return { decision: "always", feedback: null, decidedBy };
      if (!isWrite && (answer === "y" || answer === "yes")) return { decision: "approve", feedback: null, decidedBy };
      if ((isWrite && (answer === "d" || answer === "deny")) || (!isWrite && (answer === "n" || answer === "no"))) {
        const reason = (await question("Reason, for the log (optional): ")).trim();
        return { decision: "deny", feedback: reason || null, decidedBy };
      }
      output.write(isWrite ? "Type o, a or d.\n" : "Type y or n.\n");
    }
  }

  return {
    approver: (approval) => {
      const next = queue.then(() => ask(approval));
      queue = Promise.race([next.catch(() => undefined), ended]);
      return next;
    },
    close: () => {
      closing = true;
      asking.abort();
      terminal.close();
    },
  };
}
