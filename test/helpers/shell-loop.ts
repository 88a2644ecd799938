/** A shell loop in a process of its own, for fault tests that change the disk while splice runs. */
import { type ChildProcess, spawn } from "node:child_process";

/** Runs `script` over and over until killed; `cleanups` gets the kill. */
export function loop(script: string, cleanups: (() => unknown)[]): ChildProcess {
  const child = spawn("sh", ["-c", `while :; do ${script}; done`], { stdio: "ignore" });
  cleanups.push(() => child.kill("SIGKILL"));
  return child;
}

/** Kills the loop and waits until it is gone. */
export async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}
