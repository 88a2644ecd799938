import { describe, expect, it } from "vitest";
import { PROGRESS_INTERVAL_MS, progressSender } from "../../../src/hosts/mcp/progress.js";
import { sleep } from "../../helpers/processes.js";

type Sent = { progress: number; total?: number; message?: string };

function collect() {
  const sent: Sent[] = [];
  const sender = progressSender("tok", async (params) => {
    expect(params.progressToken).toBe("tok");
    const { progressToken: _, ...rest } = params;
    sent.push(rest as Sent);
  });
  return { sent, sender };
}

describe("progressSender", () => {
  it("lays phases end to end, so progress only grows", async () => {
    const { sent, sender } = collect();
    sender.listener({ phase: "scanning", done: 1, total: 3 });
    await sleep(PROGRESS_INTERVAL_MS + 20);
    sender.listener({ phase: "scanning", done: 3, total: 3 });
    await sleep(PROGRESS_INTERVAL_MS + 20);
    sender.listener({ phase: "writing", done: 1, total: 2 });
    await sender.finish();
    expect(sent).toEqual([
      { progress: 1, total: 3, message: "scanning 1/3" },
      { progress: 3, total: 3, message: "scanning 3/3" },
      { progress: 4, total: 5, message: "writing 1/2" },
    ]);
  });

  it("spaces notifications, gathers output in between and sends the last before finishing", async () => {
    const { sent, sender } = collect();
    sender.listener({ phase: "running", done: 5, output: "one\n" });
    sender.listener({ phase: "running", done: 10, output: "two\n" });
    sender.listener({ phase: "running", done: 15, output: "three\n" });
    await sender.finish();
    expect(sent).toEqual([
      { progress: 5, message: "one\n" },
      { progress: 15, message: "two\nthree\n" },
    ]);
    sender.listener({ phase: "running", done: 20, output: "late\n" });
    await sleep(PROGRESS_INTERVAL_MS + 20);
    expect(sent).toHaveLength(2);
  });

  it("never repeats a value: a phase that counts again from zero moves on", async () => {
    const { sent, sender } = collect();
    sender.listener({ phase: "checking", done: 0, total: 2 });
    await sleep(PROGRESS_INTERVAL_MS + 20);
    sender.listener({ phase: "restoring", done: 0, total: 2 });
    await sender.finish();
    const values = sent.map((s) => s.progress);
    expect(values).toEqual([0, 2]);
  });
});
