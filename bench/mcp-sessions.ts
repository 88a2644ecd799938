/**
 * Memory of splice's MCP HTTP server over 1,000 abandoned sessions (each
 * initializes, then never sends another request nor DELETE), with idle
 * sessions expiring (200 ms here, 30 min by default) against the same run
 * with expiry off: the baseline, which is how the server behaved before.
 */
import { defineBenchmark, fixed, formatTable, ms, runChild } from "./lib.js";

interface Memory {
  rss: number;
  heapUsed: number;
}
interface Figures {
  before: Memory;
  after: Memory;
  later: Memory;
  openMs: number;
}

const SESSIONS = 1000;
const mib = (bytes: number) => `${fixed(bytes / 1024 / 1024)} MiB`;

async function measureRun(idleMs: number): Promise<Figures> {
  let figures: Figures | undefined;
  const env = { SESSIONS: String(SESSIONS), IDLE_MS: String(idleMs) };
  await runChild(new URL("./mcp-sessions-child.ts", import.meta.url), env, 120_000, (m) => {
    figures = m as Figures;
  });
  if (!figures) throw new Error("the session benchmark's child sent no figures");
  return figures;
}

defineBenchmark({
  name: "mcp-sessions",
  description: `MCP HTTP memory over ${SESSIONS} abandoned sessions: idle expiry vs none`,
  async run() {
    const baseline = await measureRun(0);
    const expiring = await measureRun(200);
    const row = (name: string, f: Figures) => [
      name,
      mib(f.before.rss),
      mib(f.after.rss),
      mib(f.later.rss),
      mib(f.after.heapUsed - f.before.heapUsed),
      mib(f.later.heapUsed - f.before.heapUsed),
      ms(f.openMs / SESSIONS),
    ];
    console.log(
      formatTable(
        [
          { header: "server" },
          { header: "RSS at start", right: true },
          { header: `RSS, ${SESSIONS} sessions`, right: true },
          { header: "RSS, later", right: true },
          { header: "heap grown", right: true },
          { header: "heap grown, later", right: true },
          { header: "ms per session", right: true },
        ],
        [row("no expiry (baseline)", baseline), row("idle expiry 200 ms", expiring)],
      ),
    );
    const kept = (f: Figures) => Math.max(1, f.later.heapUsed - f.before.heapUsed);
    console.log(
      `\nheap still held once the sessions went idle: expiry ${mib(kept(expiring))} vs baseline ${mib(kept(baseline))} (${fixed(kept(baseline) / kept(expiring))}x less)`,
    );
  },
});
