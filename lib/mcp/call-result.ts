import { ToolResult, type ToolImage } from "@/lib/tools";

/** A tools/call result as the MCP client returns it, read defensively: a server may send anything. */
interface CallResultLike {
  content?: unknown;
  structuredContent?: unknown;
  isError?: unknown;
}

/**
 * A tools/call result as a ToolResult: text content joined with blank lines,
 * images passed on as images, other content described in a line, structured
 * content as `data`; `isError` becomes `ToolResult.error` with the server's text.
 */
export function toToolResult(toolName: string, result: CallResultLike & Record<string, unknown>): ToolResult {
  const texts: string[] = [];
  const images: ToolImage[] = [];
  const blocks = Array.isArray(result.content) ? (result.content as unknown[]) : [];
  for (const block of blocks) {
    if (block === null || typeof block !== "object") continue;
    const item = block as Record<string, unknown>;
    switch (item.type) {
      case "text":
        if (typeof item.text === "string") texts.push(item.text);
        break;
      case "image":
        if (typeof item.data === "string" && typeof item.mimeType === "string") images.push({ mediaType: item.mimeType, data: item.data });
        break;
      case "audio":
        texts.push(`[audio, ${String(item.mimeType ?? "unknown type")}]`);
        break;
      case "resource_link":
        texts.push(`[${String(item.name ?? "resource")}: ${String(item.uri ?? "")}]`);
        break;
      case "resource": {
        const resource = (item.resource ?? {}) as Record<string, unknown>;
        texts.push(typeof resource.text === "string" ? resource.text : `[resource ${String(resource.uri ?? "")}]`);
        break;
      }
    }
  }
  const structured = result.structuredContent;
  if (texts.length === 0 && structured !== undefined) texts.push(JSON.stringify(structured));
  const text = texts.join("\n\n");
  if (result.isError === true) {
    return ToolResult.error(text.trim() === "" ? `The MCP tool \`${toolName}\` reported an error without a message.` : text);
  }
  const data = structured === undefined ? undefined : structured;
  return images.length > 0 ? ToolResult.withImages(text, images, data) : ToolResult.ok(text, data);
}
