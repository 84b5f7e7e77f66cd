// Helpers for the filesystem tool tests: real temporary folders, contexts, a recording IOHandler.
import type { ApprovalPreview } from "../../permissions/approval-preview";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach } from "vitest";
import {
  AutoApproveIOHandler,
  type ApprovalAnswer,
  type ApprovalAnswerDecision,
  type ApprovalAsk,
  type IOHandler,
} from "../../io-handler";
import type { PermissionMode } from "../../permissions/guardrails";
import { previewText } from "../../permissions/preview-text";
import { createToolContext, type ToolContext } from "../../tool-context";

const created: string[] = [];

afterEach(() => {
  for (const folder of created.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A fresh folder under the OS temp folder (symlinks resolved), removed after the test. */
export function temporaryFolder(prefix = "neurosurfer-fs-"): string {
  const folder = realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
  created.push(folder);
  return folder;
}

/** Writes `files` (relative path -> content) under `root`, creating folders. */
export function writeTree(root: string, files: Record<string, string | Buffer>): void {
  for (const [relative, content] of Object.entries(files)) {
    const target = path.join(root, relative);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
}

/** A context working in `root`, auto-approving, in `bypass` mode unless told otherwise. */
export function contextFor(root: string, options: { mode?: PermissionMode; io?: IOHandler } = {}): ToolContext {
  return createToolContext({
    io: options.io ?? new AutoApproveIOHandler(),
    settings: { root },
    permissions: { mode: options.mode ?? "bypass" },
  });
}

/** Answers write approvals with a fixed decision and records what it was asked; approves the rest. */
export class RecordingIOHandler implements IOHandler {
  /** Each write ask, with its preview as the text a terminal would show. */
  readonly writeRequests: { path: string; summary: string; preview: ApprovalPreview }[] = [];

  constructor(
    private readonly decision: ApprovalAnswerDecision,
    /** Runs while the person "looks at" the first request, e.g. to change the file meanwhile. */
    private readonly whileAsking?: () => void,
  ) {}

  async requestApproval(ask: ApprovalAsk): Promise<ApprovalAnswer> {
    if (ask.kind !== "write") return { decision: "once" };
    this.writeRequests.push({ path: ask.path, summary: previewText(ask.preview), preview: ask.preview });
    if (this.writeRequests.length === 1) this.whileAsking?.();
    return { decision: this.decision };
  }
  async ask(): Promise<string> {
    return "";
  }
  async notify(): Promise<void> {}
}
