/**
 * Runs once when the server starts: the studio boots (migrations, secret key
 * check, resuming unfinished runs) before the first request, so runs waiting
 * for approval continue after a restart even if nobody opens a page.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { bootOrExit } = await import("@/lib/server/boot");
  await bootOrExit();
}
