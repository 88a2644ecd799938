/**
 * `npm run test:clients`: each client set up as docs/clients.md says (the
 * blocks read out of the page), run headless against its fake provider. The
 * model's tool list holds splice's tools and none of the client's file tools
 * the set-up hides; reading works without a flag, a write does not, and
 * with the documented flag a write goes through to the disk.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runClient } from "./measure.js";
import { clientToolName } from "./script.js";
import { HIDDEN, offeredNames, type SetupClient, setupRun, type Variant } from "./setups.js";

const CLIENTS: SetupClient[] = ["claude", "codex", "gemini"];

async function run(client: SetupClient, variant: Variant, tryWrite = false) {
  const { spec, scenario } = setupRun(client, variant, tryWrite);
  let offered: string[] = [];
  let range = "";
  const result = await runClient(spec, {
    scenario,
    inspect(project, requests) {
      offered = offeredNames(client, requests);
      range = readFileSync(join(project, "src", "range.ts"), "utf8");
    },
  });
  return { result, offered, range };
}

describe.each(CLIENTS)("%s, set up as docs/clients.md says", (client) => {
  it("offers splice's tools, not its own file tools, and reads headless", async () => {
    const { result, offered } = await run(client, "headless");
    expect(clientToolName(offered, "read"), offered.join(", ")).toBeDefined();
    expect(clientToolName(offered, "search")).toBeDefined();
    expect(offered.filter((name) => HIDDEN[client].includes(name))).toEqual([]);
    expect(result.failure, result.output).toBeUndefined();
    expect(result.pairs[0]?.seen).toMatch(/src\/range\.ts#[0-9A-F]{4}/);
  });

  it("without the flag, a write is not let through: headless, nobody is there to say yes", async () => {
    const { result, range } = await run(client, "headless", true);
    // The read went through, so the client ran and the edit was its choice to refuse.
    expect(result.pairs[0]?.seen, result.output).toMatch(/src\/range\.ts#[0-9A-F]{4}/);
    expect(range).not.toContain("// set-up checked");
  });

  it("with the documented flag, lets a write through", async () => {
    const { result, offered, range } = await run(client, "headless-writes");
    expect(clientToolName(offered, "edit"), offered.join(", ")).toBeDefined();
    expect(offered.filter((name) => HIDDEN[client].includes(name))).toEqual([]);
    expect(result.failure, result.output).toBeUndefined();
    expect(range).toContain("// set-up checked");
  });
});
