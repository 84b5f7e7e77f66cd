import type { JsonSchema } from "@/lib/schema-form/field-descriptors";
import type { ToolNode } from "./definition";

interface AttachedInputsProps {
  node: ToolNode;
  /** The operation's (or tool's) input schema. */
  schema: JsonSchema;
  /** Inputs the model never sees (credentials). */
  hidden: readonly string[];
  agentNames: readonly string[];
}

/**
 * A tool attached to an agent: the model decides each input on each call, so
 * the inputs are shown, not edited. Values bound earlier stay bound and are
 * hidden from the model.
 */
export function AttachedInputs({ node, schema, hidden, agentNames }: AttachedInputsProps) {
  const properties = Object.entries((schema.properties as Record<string, JsonSchema> | undefined) ?? {}).filter(([key]) => !hidden.includes(key));
  return (
    <div className="space-y-3">
      <p className="text-xs leading-relaxed text-muted">
        Attached to {agentNames.join(", ")}: its model calls this tool and decides these inputs on each call. The settings above and the credentials stay
        with this step and are never shown to the model.
      </p>
      {properties.length === 0 ? <p className="text-sm text-muted">This operation takes no inputs.</p> : null}
      <dl className="space-y-2" aria-label="Inputs decided by the model">
        {properties.map(([key, field]) => {
          const bound = node.arguments[key];
          return (
            <div key={key} className="rounded-md border border-line px-3 py-2">
              <dt className="flex items-center justify-between gap-2 text-sm font-medium text-foreground">
                <span>{typeof field.title === "string" ? field.title : key}</span>
                <span className="text-xs font-normal text-muted">{bound === undefined ? "Decided by the model" : "Fixed by this step"}</span>
              </dt>
              <dd className="mt-1 text-xs text-muted">
                {bound === undefined ? (typeof field.description === "string" ? field.description : null) : <code className="font-mono">{JSON.stringify(bound)}</code>}
              </dd>
            </div>
          );
        })}
      </dl>
    </div>
  );
}
