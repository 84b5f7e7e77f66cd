import { parseUnifiedDiff, type DiffLine } from "@/lib/run-view/parse-diff";

const LINE_LOOK: Record<DiffLine["kind"], { className: string; sign: string; label?: string }> = {
  added: { className: "bg-safe-soft text-safe", sign: "+", label: "added" },
  removed: { className: "bg-caution-soft text-caution", sign: "−", label: "removed" },
  context: { className: "text-foreground", sign: " " },
  note: { className: "text-muted italic", sign: " " },
};

/**
 * A unified diff as a person reads it: the file's path, then each line with
 * its old and new numbers, added lines green and removed lines orange, and
 * the +/− sign kept so colour is never the only cue. Text that is not a diff
 * is shown as it is.
 */
export function DiffView({ diff, label = "Proposed change" }: { diff: string; label?: string }) {
  const files = parseUnifiedDiff(diff);
  if (!files) {
    return <pre className="whitespace-pre-wrap rounded-lg border border-line bg-surface-sunken p-3 font-mono text-xs leading-relaxed">{diff}</pre>;
  }
  return (
    <div className="space-y-3" aria-label={label} role="group">
      {files.map((file, fileIndex) => {
        const path = file.newPath ?? file.oldPath ?? "file";
        const status = file.oldPath === null ? "new file" : file.newPath === null ? "deleted" : null;
        return (
          <figure key={`${path}-${fileIndex}`} className="overflow-hidden rounded-lg border border-line">
            <figcaption className="flex flex-wrap items-center gap-2 border-b border-line bg-surface-sunken px-3 py-1.5 text-xs">
              <span className="font-mono font-semibold text-foreground">{path}</span>
              {status ? <span className="rounded-full border border-line px-1.5 text-[0.6875rem] text-muted">{status}</span> : null}
              <span className="ml-auto tabular-nums text-safe">+{file.added}</span>
              <span className="tabular-nums text-caution">−{file.removed}</span>
            </figcaption>
            <div className="max-h-96 overflow-auto">
              <table className="w-full border-collapse font-mono text-xs leading-5">
                <tbody>
                  {file.hunks.map((hunk, hunkIndex) => (
                    <HunkRows key={hunkIndex} header={hunk.header} lines={hunk.lines} />
                  ))}
                </tbody>
              </table>
            </div>
          </figure>
        );
      })}
    </div>
  );
}

function HunkRows({ header, lines }: { header: string; lines: DiffLine[] }) {
  return (
    <>
      <tr className="bg-accent-soft/60 text-accent">
        <td colSpan={4} className="px-3 py-0.5">
          {header}
        </td>
      </tr>
      {lines.map((line, index) => {
        const look = LINE_LOOK[line.kind];
        return (
          <tr key={index} className={look.className}>
            <td className="w-10 select-none border-r border-line/60 px-2 text-right text-muted tabular-nums">{line.oldNumber ?? ""}</td>
            <td className="w-10 select-none border-r border-line/60 px-2 text-right text-muted tabular-nums">{line.newNumber ?? ""}</td>
            <td className="w-5 select-none pl-2 text-center" aria-hidden={look.label ? undefined : true}>
              {look.label ? <span aria-label={look.label}>{look.sign}</span> : look.sign}
            </td>
            <td className="whitespace-pre-wrap break-all pr-3">{line.text === "" ? "\u00a0" : line.text}</td>
          </tr>
        );
      })}
    </>
  );
}
