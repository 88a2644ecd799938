/** Copies each tool's manual (src/tools/<tool>/<name>.md) beside its built code in dist/tools/. */
import { copyFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

const DIST = process.env.SPLICE_DIST ?? "dist";

for (const entry of readdirSync("src/tools", { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith(".md")) continue;
  const from = join(entry.parentPath, entry.name);
  copyFileSync(from, join(DIST, from.slice("src/".length)));
}
