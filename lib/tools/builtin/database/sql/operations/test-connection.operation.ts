import { z } from "zod";
import { defineOperation } from "../../../../operation";
import { ToolResult } from "../../../../tool-result";
import { plural } from "../../../shared/text-table";
import { DsnField } from "../dsn-field";
import { withDatabase } from "../with-database";

const TestConnectionArgs = z.object({ dsn: DsnField });

/** Connects, reads the server version, and disconnects. */
export const testConnectionOperation = defineOperation({
  title: "Test the connection",
  description: "Check that the database can be reached and say which server and database it is.",
  inputModel: TestConnectionArgs,
  capabilities: ["db.connect"],
  readOnly: true,
  async execute(args, ctx) {
    return withDatabase(args.dsn, ctx, async (session) => {
      const info = await session.info();
      const who = info.user ? ` as ${info.user}` : "";
      return ToolResult.ok(
        `Connected to ${info.engine} ${info.version}, database ${info.database}${who}: ${plural(info.tableCount, "table")} (views included).`,
        info,
      );
    });
  },
});
