import { createInterface } from "node:readline/promises";
import { previewText, toVisibleString } from "@/lib/tools";
import type { ApprovalDecisionInput, ApprovalKind, ApprovalRecord } from "@/lib/workflow/run-types";
import { wrapForTerminal } from "./wrap-for-terminal";

/** Decides one approval of a run; may print what it decided or ask someone. */
export type Approver = (
  approval: Pick<ApprovalRecord, "id" | "kind" | "nodeId" | "tool" | "operation" | "preview"> & Partial<Pick<ApprovalRecord, "effect">>,
) => Promise<ApprovalDecisionInput>;

/** The feedback of a denial when nobody can be asked. */
export const NO_PERSON_FEEDBACK = "no person to approve (run with --auto-approve for trusted scripts)";
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

/**
 * What the terminal shows before asking: the header and the preview, every
 * control, escape, carriage return and bidi character marked (the same rules
 * as the browser's card), wrapped to the terminal's width.
 */
export function approvalPrompt(approval: Parameters<Approver>[0], columns: number): string {
  const subject = toVisibleString(`${approval.nodeId}${approval.tool ? ` (${approval.tool}${approval.operation ? ` ${approval.operation}` : ""})` : ""}`);
  const shown = approval.effect ? previewText(approval.effect) : toVisibleString(approval.preview);
  const header = `── ${approval.kind === "ask" ? "A question from" : `Approve ${approval.kind} by`} ${subject} ──`;
  return `\n${wrapForTerminal(`${header}\n${shown}`, columns)}\n\n`;
}

function columnsOf(output: NodeJS.WritableStream): number {
  const columns = (output as { columns?: unknown }).columns;
  return typeof columns === "number" && columns > 0 ? columns : 80;
}

/** No --auto-approve and no terminal: deny, saying why. */
export const denyingApprover: Approver = async () => ({ decision: "deny", feedback: NO_PERSON_FEEDBACK, decidedBy: CLI_NAME });

/**
 * Asks the person at the terminal, one approval at a time (concurrent branches
 * queue up). `close` ends any question still open.
 */
export function terminalApprover(input: NodeJS.ReadableStream, output: NodeJS.WritableStream, onInterrupt: () => void): { approver: Approver; close: () => void } {
  const terminal = createInterface({ input, output, terminal: true });
  // Ctrl-C while a question is open reaches the interface, not the process.
  terminal.on("SIGINT", onInterrupt);
  const asking = new AbortController();
  let queue: Promise<unknown> = Promise.resolve();
  const decidedBy = `${process.env.USER ?? "someone"} (terminal)`;

  const question = (prompt: string) => terminal.question(prompt, { signal: asking.signal });

  async function ask(approval: Parameters<Approver>[0]): Promise<ApprovalDecisionInput> {
    output.write(approvalPrompt(approval, columnsOf(output)));
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
      queue = next.catch(() => undefined);
      return next;
    },
    close: () => {
      asking.abort();
      terminal.close();
    },
  };
}
