/**
 * `npm run test:clients`: each real client (pinned, installed on demand)
 * runs the script headless against its fake provider, every result reaches
 * the model, and the model is handed at most TARGET_RATIO times splice's
 * text content for each tool, not counting the client's own framing (a
 * fixed header or reminder the server cannot change).
 */
import { describe, expect, it } from "vitest";
import { CLIENTS } from "./clients.js";
import { runClient } from "./measure.js";
import { OUTPUT_KINDS, OUTPUTS_SCENARIO, outcomeOf } from "./outputs.js";
import { formatRuns, netRatioOf, TARGET_RATIO } from "./report.js";

describe.each(CLIENTS.map((client) => [client.name, client] as const))("%s", (_name, client) => {
  it(`hands the model at most ${TARGET_RATIO}x splice's text content`, async () => {
    const run = await runClient(client);
    console.log(formatRuns([run]));
    expect(run.failure).toBeUndefined();
    const over = run.rows.filter(
      (row) => (netRatioOf(row) ?? Number.POSITIVE_INFINITY) > TARGET_RATIO,
    );
    expect(
      over.map((row) => `${row.tool}: ${row.seen} chars for ${row.text} (${row.passed})`),
    ).toEqual([]);
    // One text: no JSON copy beside it repeats splice's sentence (Gemini CLI shows an error whole).
    expect(
      run.rows.filter((row) => row.repeats !== 1).map((row) => [row.tool, row.repeats]),
    ).toEqual([]);
  });

  it("hands the model splice's large results whole, with the line that says how to go on", async () => {
    const run = await runClient(client, { scenario: OUTPUTS_SCENARIO });
    expect(run.failure).toBeUndefined();
    const short = run.pairs.flatMap((pair, i) => {
      const o = outcomeOf(pair);
      return o.whole && o.continuation !== false
        ? []
        : [`${OUTPUT_KINDS[i]}: ${o.seen} of ${o.text}`];
    });
    expect(short).toEqual([]);
  });
});
