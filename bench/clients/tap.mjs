#!/usr/bin/env node
/**
 * A stdio relay between an MCP client and splice's server that writes each
 * tools/call and its result, one JSON line each, to the file named first:
 * `node tap.mjs LOG -- node bin/splice serve ...`. The harness compares what
 * the server answered with what the client passed on to the model, for the
 * very same call. Plain JS, so a client can start it with `node` alone.
 */
import { spawn } from "node:child_process";
import { appendFileSync } from "node:fs";

const [log, separator, command, ...args] = process.argv.slice(2);
if (!log || separator !== "--" || !command) {
  console.error("usage: tap.mjs LOG -- COMMAND [ARGS...]");
  process.exit(2);
}

// In-process (SPLICE_ENGINE=0): a warm engine started in the run's temp HOME would outlive the
// run, and go on writing the temp project's history while it is removed. Results are the same.
const child = spawn(command, args, {
  stdio: ["pipe", "pipe", "inherit"],
  env: { ...process.env, SPLICE_ENGINE: "0" },
});
const calls = new Map();

/** Reads newline-delimited JSON-RPC from one direction, passing every byte on unchanged. */
function watch(from, to, onMessage) {
  let pending = "";
  from.on("data", (chunk) => {
    to.write(chunk);
    pending += chunk.toString("utf8");
    let end = pending.indexOf("\n");
    while (end >= 0) {
      const line = pending.slice(0, end).trim();
      pending = pending.slice(end + 1);
      end = pending.indexOf("\n");
      if (line === "") continue;
      try {
        onMessage(JSON.parse(line));
      } catch {
        // not JSON: the relay still passed it on
      }
    }
  });
}

watch(process.stdin, child.stdin, (message) => {
  if (message.method === "tools/call") calls.set(message.id, message.params);
});
watch(child.stdout, process.stdout, (message) => {
  if (message.id === undefined || !calls.has(message.id)) return;
  const params = calls.get(message.id);
  calls.delete(message.id);
  const record = {
    name: params?.name,
    arguments: params?.arguments,
    result: message.result,
    error: message.error,
  };
  appendFileSync(log, `${JSON.stringify(record)}\n`);
});

process.stdin.on("end", () => child.stdin.end());
child.on("exit", (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
