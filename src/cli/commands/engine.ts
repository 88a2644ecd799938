import { ask, type EngineStatus, reachEngine } from "../../engine/client.js";
import { formatBytes } from "../../util/format.js";
import { defineCommand, invalid } from "../define.js";
import { EXIT } from "../exit-codes.js";
import { io } from "../io.js";

const ago = (iso: string) => {
  const s = Math.round((Date.now() - Date.parse(iso)) / 1000);
  return s < 120 ? `${s} s ago` : `${Math.round(s / 60)} min ago`;
};

function statusView(s: EngineStatus): string {
  return [
    `engine ${s.pid} (splice ${s.version}), started ${ago(s.startedAt)}`,
    `  socket   ${s.socket}`,
    `  commands ${s.commands} running, ${s.answered} answered`,
    `  roots    ${s.roots.length === 0 ? "none open" : s.roots.join(", ")}`,
    `  memory   ${formatBytes(s.rssBytes)}`,
    `  exits    after ${Math.round(s.idleExitMs / 60_000)} min without a command`,
  ].join("\n");
}

export const engine = defineCommand({
  name: "engine",
  summary: "show or stop the engine that keeps roots warm between commands",
  usage: "ACTION",
  description: `Commands that work on a root run in one long-lived process per user, the
engine, which keeps each root's language servers, symbol index, watch and
history open between commands. The first such command starts it; it exits
after 15 minutes without one (SPLICE_ENGINE_IDLE=SECONDS to change that).
status shows it; stop ends it once its running commands finish.
--no-engine on any command, or SPLICE_ENGINE=0, runs commands in their own process.`,
  args: [{ name: "ACTION", description: "status or stop" }],
  flags: {},
  examples: ["splice engine status", "splice engine stop"],
  async run({ positionals, paint }) {
    const action = positionals[0];
    if (action !== "status" && action !== "stop") {
      invalid(`splice engine takes status or stop, not "${action ?? ""}".`);
    }
    const reached = await reachEngine({ start: false, entry: "", env: io().env });
    if ("why" in reached) {
      const json = { running: false, why: reached.why };
      return {
        json,
        human: paint("dim", "No engine is running; the next command starts one."),
        exitCode: action === "stop" ? EXIT.ok : EXIT.refused,
      };
    }
    const answer = await ask(reached.socket, action === "stop" ? { t: "stop" } : { t: "status" });
    if (action === "stop") {
      return {
        json: { running: false, stopped: reached.pid },
        human: `Stopped engine ${reached.pid}.`,
      };
    }
    if (answer?.t !== "status" || !("engine" in answer)) {
      return {
        json: { running: false },
        human: "The engine did not answer.",
        exitCode: EXIT.internal,
      };
    }
    return { json: { ...answer.engine, running: true }, human: statusView(answer.engine) };
  },
});
