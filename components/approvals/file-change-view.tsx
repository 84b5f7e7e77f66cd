"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { foldDiffRows, isLine } from "@/lib/run-view/fold-diff-rows";
import { type DiffLine, type DiffRow, FILE_LINE_MARKING, type FileChangePreview, hasHiddenCharacters } from "@/lib/tools/contracts";
import { VisibleText } from "@/components/ui/visible-text";

const LINE_LOOK: Record<DiffLine["kind"], { className: string; sign: string; label?: string }> = {
  added: { className: "bg-safe-soft text-safe", sign: "+", label: "added" },
  removed: { className: "bg-caution-soft text-caution", sign: "−", label: "removed" },
  context: { className: "text-foreground", sign: " " },
};

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;

/**
 * A file change as a person reads it, from the server's rows (never parsed
 * from diff text): the path, the true counts, then each line with its old
 * and new numbers, added green and removed orange with the +/− kept so
 * colour is never the only cue. A long change shows its head and tail and a
 * control that shows the rest in place; lines with hidden characters are
 * flagged, folded or not.
 */
/** The absolute folder a write's path is in, on a line of its own: a person approving must know which `reports/` it is. */
export function FileRootLine({ root }: { root: string }) {
  return (
    <span className="block basis-full text-muted" data-testid="file-root">
      in <span className="break-all font-mono text-foreground [direction:ltr] [unicode-bidi:bidi-override]"><VisibleText text={root} /></span>
    </span>
  );
}

export function FileChangeView({ change, download, label = "Proposed change" }: { change: FileChangePreview; download?: string; label?: string }) {
  const [expanded, setExpanded] = useState(false);
  const { head, folded, tail } = foldDiffRows(change.rows);
  return (
    <div role="group" aria-label={label}>
      <figure className="overflow-hidden rounded-lg border border-line">
        <figcaption className="flex flex-wrap items-center gap-2 border-b border-line bg-surface-sunken px-3 py-1.5 text-xs">
          <span className="min-w-0 break-all font-mono font-semibold text-foreground [direction:ltr] [unicode-bidi:bidi-override]">
            <VisibleText text={change.path} />
          </span>
          {change.change === "create" ? <span className="rounded-full border border-line px-1.5 text-[0.6875rem] text-muted">new file</span> : null}
          {change.added === 0 && change.removed === 0 ? (
            // The file would hold what it holds now: "+0 −0" says that to nobody.
            <span className="ml-auto text-muted">no change</span>
          ) : (
            <>
              <span className="ml-auto tabular-nums text-safe" aria-label={`${plural(change.added, "line")} added`}>
                +{change.added}
              </span>
              <span className="tabular-nums text-caution" aria-label={`${plural(change.removed, "line")} removed`}>
                −{change.removed}
              </span>
            </>
          )}
          {change.root !== undefined ? <FileRootLine root={change.root} /> : null}
        </figcaption>
        <table className="w-full table-fixed border-collapse font-mono text-xs leading-5">
          <colgroup>
            <col className="w-12" />
            <col className="w-12" />
            <col className="w-6" />
            <col />
          </colgroup>
          <tbody>
            <Rows rows={head} download={download} />
            {folded && expanded ? <Rows rows={folded.rows} download={download} /> : null}
            {folded && !expanded ? (
              <tr className="bg-accent-soft/60">
                <td colSpan={4} className="px-3 py-1.5 font-sans">
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="font-medium text-foreground">
                      {plural(folded.lines, "line")} not shown (+{folded.added} −{folded.removed})
                      {folded.flagged.length > 0 ? `; ${plural(folded.flagged.length, "line")} among them ${folded.flagged.length === 1 ? "holds" : "hold"} hidden characters, shown below` : ""}
                    </span>
                    <Button size="sm" onClick={() => setExpanded(true)}>
                      Show all {plural(folded.lines, "line")}
                    </Button>
                  </div>
                </td>
              </tr>
            ) : null}
            {folded && !expanded ? folded.flagged.map((line, index) => <LineRow key={`flagged-${index}`} line={line} />) : null}
            <Rows rows={tail} download={download} />
          </tbody>
        </table>
      </figure>
    </div>
  );
}

function Rows({ rows, download }: { rows: readonly DiffRow[]; download?: string }) {
  return <>{rows.map((row, index) => (isLine(row) ? <LineRow key={index} line={row} /> : <NoteRow key={index} row={row} download={download} />))}</>;
}

function NoteRow({ row, download }: { row: Exclude<DiffRow, DiffLine>; download?: string }) {
  if (row.kind === "omitted") {
    return (
      <>
        <tr className="bg-accent-soft/60">
          <td colSpan={4} className="px-3 py-1.5 font-sans">
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-medium text-foreground">
                {plural(row.lines, "line")} not shown (+{row.added} −{row.removed}): the change is too large to include in full
              </span>
              {download !== undefined ? <DownloadButton text={download} /> : null}
            </div>
          </td>
        </tr>
        {row.flagged.map((line, index) => (
          <LineRow key={index} line={line} />
        ))}
      </>
    );
  }
  return (
    <tr className="text-muted">
      <td colSpan={4} className="px-3 py-0.5 font-sans italic">
        {row.kind === "skipped" ? `… ${plural(row.lines, "unchanged line")} …` : row.text}
      </td>
    </tr>
  );
}

function LineRow({ line }: { line: DiffLine }) {
  const look = LINE_LOOK[line.kind];
  const flagged = hasHiddenCharacters(line.text, FILE_LINE_MARKING);
  return (
    <tr className={`${look.className} ${flagged ? "outline outline-1 -outline-offset-1 outline-caution" : ""}`} data-line-kind={line.kind} data-hidden-characters={flagged ? "" : undefined}>
      <td className="select-none border-r border-line/60 px-2 text-right text-muted tabular-nums">{line.oldNumber ?? ""}</td>
      <td className="select-none border-r border-line/60 px-2 text-right text-muted tabular-nums">{line.newNumber ?? ""}</td>
      <td className="select-none pl-2 text-center" aria-hidden={look.label ? undefined : true}>
        {look.label ? <span aria-label={look.label}>{look.sign}</span> : look.sign}
      </td>
      <td className="whitespace-pre-wrap pr-3 [overflow-wrap:anywhere]">{line.text === "" ? "\u00a0" : <VisibleText text={line.text} options={FILE_LINE_MARKING} />}</td>
    </tr>
  );
}

/** The whole new content as a file, for a change too large to show in the card. */
function DownloadButton({ text }: { text: string }) {
  function save() {
    const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = "new-content.txt";
    link.click();
    URL.revokeObjectURL(url);
  }
  return (
    <Button size="sm" onClick={save}>
      Download the whole new content
    </Button>
  );
}
