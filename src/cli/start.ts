/**
 * Where the `splice` command starts (bin/splice). A command that works on a
 * root goes to the engine (engine/client.ts), started on first use and kept
 * warm; anything else, `--no-engine`, SPLICE_ENGINE=0, or an engine that
 * cannot be reached runs here, in this process (main.ts).
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { reachEngine, runInEngine } from "../engine/client.js";
import { routeOf } from "./routing.js";

const argv = process.argv.slice(2);
const verbose = argv.includes("--verbose");
const say = (line: string) => verbose && process.stderr.write(`splice: ${line}\n`);

async function start(): Promise<number> {
  const route = routeOf(argv, process.env);
  if (route.engine) {
    const entry = fileURLToPath(new URL("./engine-process.js", import.meta.url));
    // Run from its sources (tsx), splice has no built engine to start: it runs here.
    const start = existsSync(entry);
    const reached = await reachEngine({ start, entry, env: process.env });
    if (!("why" in reached)) {
      say(`running in the engine (pid ${reached.pid}); --no-engine runs it here`);
      return runInEngine(reached.socket, argv);
    }
    say(`no engine: ${reached.why}; running in this process`);
  } else say(`running in this process: ${route.why}`);
  const { runCli } = await import("./main.js");
  const { code, exitWithinMs } = await runCli(argv);
  if (exitWithinMs !== undefined) setTimeout(() => process.exit(code), exitWithinMs).unref();
  return code;
}

start().then((code) => {
  process.exitCode = code;
});
