/**
 * A stand-in for the studio in shell-process.test.ts: starts the command given
 * as its argument through ShellProcess, as run_command does, says "started"
 * once the command has printed "ready", and waits to be killed.
 */
import { ShellProcess } from "./shell-process";

const command = process.argv[2];
if (!command) throw new Error("give the command to run as the first argument");
const shell = ShellProcess.start({ command, cwd: process.cwd(), env: { PATH: process.env.PATH ?? "/usr/bin:/bin" }, timeoutMs: 600_000 });
const announce = () => {
  if (!shell.stdout.text().includes("ready")) return;
  clearInterval(poll);
  process.stdout.write("started\n");
};
const poll = setInterval(announce, 20);
void shell.done.then((outcome) => {
  process.stdout.write(`ended ${JSON.stringify(outcome)}\n`);
});
