import { argumentMarking } from "@/lib/run-view/hidden-characters";
import { type ApprovalPreview as Effect, FILE_LINE_MARKING } from "@/lib/tools/contracts";
import type { ApprovalKind } from "@/lib/contracts/approval";
import { ArgumentList } from "./argument-list";
import { FileChangeView, FileRootLine } from "./file-change-view";
import { VisibleText } from "@/components/ui/visible-text";

interface ApprovalPreviewProps {
  kind: ApprovalKind;
  effect: Effect;
  toolTitle: string;
  arguments: Record<string, unknown>;
}

// Code-like text is shown in the order it is stored, whatever scripts it mixes, and wraps rather than scrolls.
const LOGICAL_ORDER = "[direction:ltr] [unicode-bidi:bidi-override]";

/** What would happen, rendered from the server's data the way each kind reads best. */
export function ApprovalPreview({ kind, effect, toolTitle, arguments: args }: ApprovalPreviewProps) {
  switch (effect.kind) {
    case "file-change":
      return <FileChangeView change={effect} download={typeof args.content === "string" ? args.content : undefined} />;
    case "file-replace":
      return (
        <div role="group" aria-label="Proposed change" className="rounded-lg border border-line bg-surface-sunken px-3 py-2.5 text-sm">
          <p>
            Replaces <span className={`break-all font-mono font-semibold ${LOGICAL_ORDER}`}><VisibleText text={effect.path} /></span>{" "}
            {effect.reason === "binary" ? "(a binary file)" : effect.reason === "too-large" ? "(too large to compare)" : "(too different to compare line by line)"}
            {": "}
            {effect.beforeBytes === null ? "a new file" : `${effect.beforeBytes} bytes before`}, {effect.afterBytes} bytes
            {effect.afterLines === null ? "" : ` in ${effect.afterLines} lines`} after.
          </p>
          {effect.root !== undefined ? <FileRootLine root={effect.root} /> : null}
        </div>
      );
    case "command":
      return (
        <div role="group" aria-label="Command">
          <p className="mb-1 text-xs font-medium text-muted">
            Command, run{" "}
            {effect.folder !== undefined || effect.workingFolder !== "." ? (
              <>
                in <span className={`break-all font-mono text-foreground ${LOGICAL_ORDER}`} data-testid="command-folder"><VisibleText text={effect.folder ?? effect.workingFolder} /></span>
              </>
            ) : (
              "in the step’s folder"
            )}
            {effect.background ? ", as a background job" : ""}
          </p>
          <pre
            className={`whitespace-pre-wrap rounded-lg border border-line-strong bg-[#15181d] px-3 py-2.5 font-mono text-sm text-[#e8eaef] [overflow-wrap:anywhere] ${LOGICAL_ORDER}`}
          >
            <code data-command="">
              <span aria-hidden="true" className="select-none text-[#9aa3b2]">$ </span>
              <VisibleText text={effect.command} tone="dark" />
            </code>
          </pre>
        </div>
      );
    case "request":
      return (
        <div role="group" aria-label="Request" className="space-y-2 rounded-lg border border-line bg-surface-sunken px-3 py-2.5">
          <div className="flex min-w-0 items-start gap-2">
            <span className="rounded bg-accent px-2 py-0.5 font-mono text-xs font-bold text-accent-foreground">
              <VisibleText text={effect.method} />
            </span>
            <span className={`min-w-0 break-all font-mono text-sm font-medium text-foreground ${LOGICAL_ORDER}`}>
              <VisibleText text={effect.url} />
            </span>
          </div>
          {effect.reaches ? (
            // Why a read asks at all: it leads to this machine or its network (the outbound-address guardrail).
            <p role="note" className="rounded border border-caution bg-caution-soft px-2 py-1.5 text-sm text-foreground">
              Reaches this machine or its network: <VisibleText text={effect.reaches} />. A page or a model could use this to read
              internal services; approve only if this step should.
            </p>
          ) : null}
          {effect.headers.length > 0 ? (
            <ArgumentList values={Object.fromEntries(effect.headers.map((header) => [header.name, header.value]))} label="Request headers" />
          ) : null}
          {effect.body !== null ? (
            <pre className="max-h-96 overflow-auto whitespace-pre-wrap rounded border border-line bg-surface p-2 font-mono text-xs [overflow-wrap:anywhere]" aria-label="Request body">
              <VisibleText text={effect.body} options={argumentMarking(effect.body)} />
            </pre>
          ) : null}
        </div>
      );
    case "tool-call":
      return (
        <div className="space-y-2 rounded-lg border border-line bg-surface-sunken px-3 py-2.5">
          <p className="text-sm">
            Calls the MCP tool <span className="font-semibold">{toolTitle}</span>
            {effect.server ? (
              <>
                {" "}of the server <span className={`font-mono ${LOGICAL_ORDER}`}><VisibleText text={effect.server} /></span>
              </>
            ) : null}
          </p>
          <ArgumentList values={args} label="MCP arguments" />
        </div>
      );
    case "text":
      return kind === "ask" ? (
        <p className="whitespace-pre-wrap rounded-lg border border-accent/30 bg-accent-soft px-3 py-2.5 text-sm text-foreground [overflow-wrap:anywhere]">
          <VisibleText text={effect.text} options={FILE_LINE_MARKING} />
        </p>
      ) : (
        <div>
          {kind === "plan" ? <p className="mb-1 text-xs font-medium text-muted">The plan</p> : null}
          <pre className="max-h-96 overflow-auto whitespace-pre-wrap rounded-lg border border-line bg-surface-sunken px-3 py-2.5 font-sans text-sm leading-relaxed [overflow-wrap:anywhere]">
            <VisibleText text={effect.text} options={FILE_LINE_MARKING} />
          </pre>
        </div>
      );
  }
}
