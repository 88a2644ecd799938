/**
 * What the engine tests share: the built command, whether the engine is
 * built at all, and a private runtime folder so a test file's engine is its
 * own (engine/place.ts puts the socket in $XDG_RUNTIME_DIR/splice).
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const BIN = join(import.meta.dirname, "../../bin/splice");
export const ENGINE_BUILT = existsSync(
  join(import.meta.dirname, "../../dist/cli-bundle/engine-process.js"),
);

/** A private runtime folder, and `splice` run with it (the engine on, whatever the caller's environment says). */
export function ownEngine(): {
  env: Record<string, string>;
  splice: (args: string[]) => { code: number | null; stdout: string; stderr: string };
} {
  const runtime = mkdtempSync(join(tmpdir(), "splice-runtime-"));
  chmodSync(runtime, 0o700);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, XDG_RUNTIME_DIR: runtime })) {
    if (v !== undefined && k !== "SPLICE_ENGINE") env[k] = v;
  }
  const splice = (args: string[]) => {
    const r = spawnSync(BIN, args, { env, encoding: "utf8" });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  return { env, splice };
}
