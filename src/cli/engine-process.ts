/**
 * The engine process's entry, started detached by the first command that
 * needs it (engine/client.ts): `--socket PATH --build ID`. It runs command
 * lines with their clients' streams (io.ts), keeps each root warm for as
 * long as it stays up, and exits after SPLICE_ENGINE_IDLE seconds (default
 * 15 minutes) without a client.
 */
import { parseArgs } from "node:util";
import { Engine } from "../engine/server.js";
import { keepProjectsWarm, openProjectRoots } from "../toolkit/index.js";
import { VERSION } from "../util/version.js";
import { withIo } from "./io.js";
import { keepServing } from "./last-resort.js";
import { runCli } from "./main.js";

/** Fifteen minutes: long enough to outlast a person's pause between commands, short enough not to leave a language server up all day. */
const DEFAULT_IDLE_S = 15 * 60;

const { values } = parseArgs({
  options: { socket: { type: "string" }, build: { type: "string" } },
});
const idleS = Number(process.env.SPLICE_ENGINE_IDLE ?? DEFAULT_IDLE_S);
const idleMs = Number.isFinite(idleS) && idleS > 0 ? idleS * 1000 : DEFAULT_IDLE_S * 1000;
const log = (line: string) => process.stderr.write(`${new Date().toISOString()} ${line}\n`);

// One command's fault is that command's: the engine logs it and goes on serving the others.
keepServing(log, "the engine");

keepProjectsWarm(idleMs);
const engine = await Engine.start({
  socket: values.socket!,
  build: values.build!,
  version: VERSION,
  idleMs,
  log,
  run: (argv, io) => withIo(io, async () => (await runCli(argv)).code),
  roots: openProjectRoots,
});
process.on("SIGTERM", () => void engine.stop("SIGTERM"));
