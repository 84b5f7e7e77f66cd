import type { ApprovalKind } from "@/lib/workflow/run-types";
import { ArgumentList } from "./argument-list";
import { DiffView } from "./diff-view";

interface ApprovalPreviewProps {
  kind: ApprovalKind;
  preview: string;
  toolTitle: string;
  arguments: Record<string, unknown>;
}

/** What would happen, shown the way each kind reads best. */
export function ApprovalPreview({ kind, preview, toolTitle, arguments: args }: ApprovalPreviewProps) {
  switch (kind) {
    case "write":
      return <DiffView diff={preview} />;
    case "shell":
      return (
        <div>
          <p className="mb-1 text-xs font-medium text-muted">Command</p>
          <pre className="overflow-x-auto rounded-lg border border-line-strong bg-[#15181d] px-3 py-2.5 font-mono text-sm text-[#e8eaef]">
            <code>
              <span aria-hidden="true" className="select-none text-[#9aa3b2]">$ </span>
              {preview}
            </code>
          </pre>
        </div>
      );
    case "network": {
      const [first = "", ...rest] = preview.trim().split(/\s+/);
      const method = /^[A-Z]+$/.test(first) ? first : null;
      const url = method ? rest.join(" ") : preview.trim();
      return (
        <div className="flex min-w-0 items-center gap-2 rounded-lg border border-line bg-surface-sunken px-3 py-2.5">
          {method ? <span className="rounded bg-accent px-2 py-0.5 font-mono text-xs font-bold text-accent-foreground">{method}</span> : null}
          <span className="min-w-0 break-all font-mono text-sm font-medium text-foreground">{url}</span>
        </div>
      );
    }
    case "mcp":
      return (
        <div className="space-y-2 rounded-lg border border-line bg-surface-sunken px-3 py-2.5">
          <p className="text-sm">
            Calls the MCP tool <span className="font-semibold">{toolTitle}</span>
          </p>
          {preview ? <pre className="whitespace-pre-wrap break-all font-mono text-xs">{preview}</pre> : null}
          <ArgumentList values={args} label="MCP arguments" />
        </div>
      );
    case "plan":
      return (
        <div>
          <p className="mb-1 text-xs font-medium text-muted">The plan</p>
          <pre className="max-h-96 overflow-auto whitespace-pre-wrap rounded-lg border border-line bg-surface-sunken px-3 py-2.5 font-sans text-sm leading-relaxed">
            {preview}
          </pre>
        </div>
      );
    case "ask":
      return <p className="whitespace-pre-wrap rounded-lg border border-accent/30 bg-accent-soft px-3 py-2.5 text-sm text-foreground">{preview}</p>;
  }
}
