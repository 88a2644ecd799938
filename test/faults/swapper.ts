/**
 * The attacker of the symlink-swap tests: a child process that swaps a real
 * folder inside the root with a symlink to an outside folder, over and over,
 * until stopped. With a C compiler it is atomic (`renameat2` with
 * RENAME_EXCHANGE, so the name always exists); without one a Node loop of
 * renames does the same non-atomically.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const SOURCE = String.raw`
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif
static volatile sig_atomic_t stop = 0;
static void on_term(int sig) { (void)sig; stop = 1; }
static int swap(const char *a, const char *b) {
  return syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE);
}
int main(int argc, char **argv) {
  if (argc != 3) return 2;
  signal(SIGTERM, on_term);
  long swaps = 0;
  printf("ready\n");
  fflush(stdout);
  while (!stop) {
    if (swap(argv[1], argv[2]) != 0) { perror("renameat2"); return 1; }
    swaps++;
  }
  if (swaps % 2 == 1 && swap(argv[1], argv[2]) == 0) swaps++;
  printf("%ld\n", swaps);
  return 0;
}
`;

/** Non-atomic stand-in: the folder is briefly missing, then the link takes its name. */
const NODE_LOOP = `
const fs = require("node:fs");
const [folder, link] = process.argv.slice(1);
const aside = folder + ".aside";
let stop = false, swaps = 0;
process.on("SIGTERM", () => { stop = true; });
console.log("ready");
const tick = () => {
  for (let i = 0; i < 200 && !stop; i++) {
    fs.renameSync(folder, aside); fs.renameSync(link, folder);
    fs.renameSync(folder, link); fs.renameSync(aside, folder);
    swaps += 2;
  }
  if (stop) { console.log(String(swaps)); process.exit(0); }
  setImmediate(tick);
};
tick();
`;

let compiled: string | null | undefined;

/** The compiled helper's path, or null when there is no working C compiler (or not Linux). */
export function swapHelper(): string | null {
  if (compiled !== undefined) return compiled;
  compiled = null;
  if (process.platform !== "linux") return compiled;
  const dir = mkdtempSync(join(tmpdir(), "splice-swap-"));
  writeFileSync(join(dir, "swap.c"), SOURCE);
  const out = join(dir, "swap");
  const cc = spawnSync("cc", ["-O2", "-o", out, join(dir, "swap.c")], { encoding: "utf8" });
  if (cc.status === 0) compiled = out;
  return compiled;
}

export interface Swapper {
  /** Whether each swap is one atomic exchange. */
  atomic: boolean;
  /** Stops the loop (leaving the folder in place) and says how many swaps it made. */
  stop(): Promise<number>;
}

/** Starts swapping `folder` (a real folder) with `link` (a symlink) until stopped. */
export async function startSwapper(folder: string, link: string): Promise<Swapper> {
  const helper = swapHelper();
  const child: ChildProcess = helper
    ? spawn(helper, [folder, link], { stdio: ["ignore", "pipe", "inherit"] })
    : spawn(process.execPath, ["-e", NODE_LOOP, folder, link], {
        stdio: ["ignore", "pipe", "inherit"],
      });
  let out = "";
  child.stdout!.setEncoding("utf8");
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: string) => {
      out += chunk;
      if (out.startsWith("ready\n")) resolve();
    });
    child.on("error", reject);
    child.on("exit", (code) => reject(new Error(`the swapper exited early (${code})`)));
  });
  await ready;
  const exited = new Promise<number>((resolve) =>
    child.on("exit", () => resolve(Number.parseInt(out.slice("ready\n".length), 10))),
  );
  return {
    atomic: helper !== null,
    stop: () => {
      child.kill("SIGTERM");
      return exited;
    },
  };
}
