/**
 * `npm run bench` runs every benchmark; `npm run bench -- engine` runs the
 * named ones. A benchmark module registers itself with defineBenchmark, so
 * adding one is one import line below.
 */
import { registeredBenchmarks } from "./lib.js";
import "./ast-plan.js";
import "./bulk.js";
import "./cli.js";
import "./clients/index.js";
import "./checkpoint.js";
import "./code.js";
import "./docs.js";
import "./edit-quality/index.js";
import "./engine.js";
import "./hosts.js";
import "./inspector.js";
import "./install.js";
import "./load.js";
import "./lsp.js";
import "./media.js";
import "./mcp-sessions.js";
import "./outside-window.js";
import "./patch-git.js";
import "./reliability.js";
import "./reliability-confine.js";
import "./remote.js";
import "./results.js";
import "./review.js";
import "./schemas.js";
import "./search.js";
import "./shared.js";
import "./tokens.js";
import "./undo.js";
import "./warm.js";
import "./watch.js";

const all = registeredBenchmarks();
const wanted = process.argv.slice(2).filter((a) => a !== "--");
const unknown = wanted.filter((name) => !all.some((b) => b.name === name));
if (unknown.length > 0) {
  console.error(`Unknown benchmark(s): ${unknown.join(", ")}. Available:`);
  for (const b of all) console.error(`  ${b.name.padEnd(10)} ${b.description}`);
  process.exitCode = 2;
}

const chosen =
  unknown.length > 0 ? [] : all.filter((b) => wanted.length === 0 || wanted.includes(b.name));
for (const benchmark of chosen) {
  console.log(`\n=== ${benchmark.name}: ${benchmark.description}\n`);
  const start = performance.now();
  await benchmark.run();
  console.log(`\n(${benchmark.name} took ${((performance.now() - start) / 1000).toFixed(1)} s)`);
}
