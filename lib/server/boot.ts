import { startStudio } from "./studio";

/** Boots the studio at server start, or stops the process with the reason (e.g. a secret key mismatch). */
export async function bootOrExit(): Promise<void> {
  try {
    await startStudio();
  } catch (error) {
    console.error(`[studio] cannot start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
