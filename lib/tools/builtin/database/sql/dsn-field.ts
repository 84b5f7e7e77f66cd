import { z } from "zod";

/**
 * The connection URL every operation takes. It is a secret input: the
 * framework removes it from what the model sees and fills it in from the
 * workflow's bound `${NAME}` reference.
 */
export const DsnField = z
  .string({
    error: (issue) =>
      issue.input === undefined
        ? "no database connection is set for this step; whoever built the workflow must bind `dsn` to a secret such as ${DATABASE_URL}"
        : "expected the connection URL as text",
  })
  .min(1, "the connection URL is empty")
  .meta({
    title: "Connection URL",
    description: "postgresql://user:password@host:5432/database or sqlite:///absolute/path.db, as a ${NAME} secret reference.",
    writeOnly: true,
  });
