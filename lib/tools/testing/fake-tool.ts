import { z } from "zod";
import { Tool } from "../tool";
import { ToolResult } from "../tool-result";

/** A tool that does nothing but describe itself (reads `file.read`, answers "done"), for tests of what lists and presents tools. */
export function fakeTool(fields: { name: string; title: string; domain: string; readOnly?: boolean }): Tool {
  class FakeTool extends Tool {
    readonly name = fields.name;
    readonly title = fields.title;
    readonly description = `${fields.title} does a thing.`;
    readonly domain = fields.domain;
    readonly capabilities = ["file.read"] as const;
    readonly inputModel = z.object({});
    override isReadOnly(): boolean {
      return fields.readOnly ?? false;
    }
    override async call(): Promise<ToolResult> {
      return ToolResult.ok("done");
    }
  }
  return new FakeTool();
}
