import { VisibleText } from "@/components/ui/visible-text";
import { hasHiddenCharacters } from "@/lib/tools/contracts";
import type { StdioServerConfig } from "@/lib/validations/mcp-server";

/**
 * Exactly what a stdio MCP server runs, shown before it first starts: the
 * program, every argument on its own line (nothing joined, so spaces inside an
 * argument stay visible), the folder and the environment, every hidden or
 * direction-changing character marked the way approval cards mark them.
 * Values are shown as stored: `${NAME}` secret references are not resolved.
 */
export function CommandReview({ config }: { config: Pick<StdioServerConfig, "command" | "args" | "env" | "cwd"> }) {
  const environment = Object.entries(config.env);
  const hidden = [config.command, ...config.args, config.cwd ?? "", ...environment.flat()].some((text) => hasHiddenCharacters(text));
  return (
    <div className="space-y-4 text-sm">
      {hidden ? (
        <p role="alert" className="rounded-md bg-caution-soft px-3 py-2 font-medium text-caution">
          This command holds hidden or direction-changing characters (marked below): what it runs may differ from how it reads.
        </p>
      ) : null}
      <p>
        The studio will start this program on this machine, with your user&apos;s rights, every time it connects to the server. Start it only if you
        know what it does.
      </p>
      <dl className="space-y-3">
        <Row label="Program">
          <Code>{config.command}</Code>
        </Row>
        <Row label={`Arguments (${config.args.length})`}>
          {config.args.length === 0 ? (
            <span className="text-muted">none</span>
          ) : (
            <ol className="list-decimal space-y-1 pl-6">
              {config.args.map((argument, index) => (
                <li key={index}>
                  <Code>{argument}</Code>
                </li>
              ))}
            </ol>
          )}
        </Row>
        <Row label="Folder">{config.cwd ? <Code>{config.cwd}</Code> : <span className="text-muted">the studio&apos;s own folder</span>}</Row>
        <Row label={`Environment (${environment.length})`}>
          {environment.length === 0 ? (
            <span className="text-muted">only PATH, HOME and LANG</span>
          ) : (
            <ul className="space-y-1">
              {environment.map(([name, value]) => (
                <li key={name}>
                  <Code>{`${name}=${value}`}</Code>
                </li>
              ))}
            </ul>
          )}
        </Row>
      </dl>
    </div>
  );
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="mb-1 text-xs font-semibold uppercase tracking-wide text-muted">{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function Code({ children }: { children: string }) {
  return (
    <code className="inline-block max-w-full whitespace-pre-wrap break-all rounded bg-surface-sunken px-1.5 py-0.5 font-mono text-xs">
      <VisibleText text={children} />
    </code>
  );
}
