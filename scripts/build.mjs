/**
 * `npm run build`: compiles, copies the manuals and bundles into dist.next/,
 * beside dist/, then swaps it in (swap-dist.mjs). While it builds, dist/ is
 * the last whole build, so tests and a linked `splice` keep working.
 * SPLICE_DIST tells the build steps where they write.
 */
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { swapDist } from "./swap-dist.mjs";

const NEXT = "dist.next";

function step(command, args) {
  const r = spawnSync(command, args, {
    stdio: "inherit",
    env: { ...process.env, SPLICE_DIST: NEXT },
  });
  if (r.status !== 0) {
    rmSync(NEXT, { recursive: true, force: true });
    process.exit(r.status ?? 1);
  }
}

rmSync(NEXT, { recursive: true, force: true });
step("npx", ["tsc", "-p", "tsconfig.build.json", "--outDir", NEXT]);
step(process.execPath, ["scripts/copy-manuals.mjs"]);
step(process.execPath, ["scripts/bundle-cli.mjs"]);
step(process.execPath, ["scripts/bundle-review.mjs"]);
swapDist(NEXT);
