/**
 * The docs benchmark: doc.set on a 5 MB JSON and a 5 MB YAML — through the
 * engine in memory and through the doc tool on disk (lock, history, backup
 * session, read-back check) — each next to a plain parse+serialize of the
 * same text, measured in the same run. For YAML it also shows the `yaml`
 * package's own format-keeping route (parseDocument, setIn, toString) and how
 * many lines that route changes besides the one edited.
 *
 * More rows (e.g. the patch engineer's) go through `docsTable`: push a
 * `DocsRow` in the marked place in `run()`.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  parseDocument as yamlDocument,
  parse as yamlParse,
  stringify as yamlStringify,
} from "yaml";
import { runDocAction } from "../src/formats/actions.js";
import { editorFor } from "../src/formats/open.js";
import { createSplice } from "../src/splice.js";
import {
  type DocsRow,
  defineBenchmark,
  environment,
  fixed,
  formatTable,
  measure,
  ms,
  Rng,
  withScratchDir,
} from "./lib.js";
import { patchRows } from "./patch.js";

const TARGET_BYTES = 5_000_000;
const SEED = 0xd0c5_2026;
const JSON_RUNS = { warmup: 2, runs: 10 };
const YAML_RUNS = { warmup: 1, runs: 5 };

/** The table every docs row goes into: time, p95, throughput and the ratio to its baseline. */
export function docsTable(rows: DocsRow[]): string {
  return formatTable(
    [
      { header: "file" },
      { header: "MB", right: true },
      { header: "operation" },
      { header: "median ms", right: true },
      { header: "p95 ms", right: true },
      { header: "MB/s", right: true },
      { header: "vs baseline", right: true },
      { header: "note" },
    ],
    rows.map((r) => {
      const base = rows.find((b) => b.file === r.file && b.operation === r.baseline)?.stats;
      const mb = r.bytes / 1e6;
      return [
        r.file,
        fixed(mb, 2),
        r.operation,
        ms(r.stats.median),
        ms(r.stats.p95),
        fixed(mb / (r.stats.median / 1000), 0),
        base ? `${fixed(r.stats.median / base.median)}x` : "",
        r.note ?? "",
      ];
    }),
  );
}

// ---------------------------------------------------------------- corpora

/** A lockfile-shaped JSON: one big object of package entries, 2-space indent. */
function bigJson(rng: Rng): { text: string; entries: number } {
  const packages: Record<string, unknown> = {};
  let size = 0;
  let n = 0;
  while (size < TARGET_BYTES) {
    const name = `node_modules/pkg-${n}`;
    const entry = {
      version: `${rng.int(0, 9)}.${rng.int(0, 30)}.${rng.int(0, 99)}`,
      resolved: `https://registry.npmjs.org/pkg-${n}/-/pkg-${n}-${rng.int(1, 9)}.0.0.tgz`,
      integrity: `sha512-${Buffer.from(String(rng.next())).toString("base64")}`,
      license: rng.pick(["MIT", "ISC", "Apache-2.0", "BSD-3-Clause"]),
      ...(rng.chance(0.5)
        ? { dependencies: { [`pkg-${rng.int(0, n + 1)}`]: `^${rng.int(1, 9)}.0.0` } }
        : {}),
      ...(rng.chance(0.2) ? { dev: true } : {}),
    };
    packages[name] = entry;
    size += JSON.stringify(entry, null, 2).length + name.length + 16;
    n++;
  }
  const text = `${JSON.stringify({ name: "big", lockfileVersion: 3, packages }, null, 2)}\n`;
  return { text, entries: n };
}

/**
 * A compose-like YAML — one map of many services, with comments, flow lists,
 * block scalars, and an anchor that the first services merge in.
 */
function bigYaml(rng: Rng): { text: string; entries: number } {
  const parts = [
    "# Generated services for the benchmark.",
    "x-defaults: &defaults",
    "  restart: unless-stopped",
    "  logging:",
    "    driver: json-file",
    "",
    "services:",
  ];
  let size = parts.join("\n").length;
  let n = 0;
  while (size < TARGET_BYTES) {
    const block = [
      `  # service ${n}`,
      `  svc-${n}:`,
      ...(n < 10 ? ["    <<: *defaults"] : ["    restart: always"]),
      `    image: "registry.example.com/svc-${n}:${rng.int(1, 9)}.${rng.int(0, 20)}"`,
      `    ports: ["${rng.int(1000, 9999)}:${rng.int(1000, 9999)}"]`,
      "    environment:",
      `      LOG_LEVEL: ${rng.pick(["debug", "info", "warn"])}   # per service`,
      `      REPLICAS: ${rng.int(1, 5)}`,
      "    command: |",
      `      run --id ${n}`,
      `      --shard ${rng.int(0, 63)}`,
      "",
    ];
    parts.push(...block);
    size += block.join("\n").length + 1;
    n++;
  }
  return { text: `${parts.join("\n")}\n`, entries: n };
}

// ---------------------------------------------------------------- run

function differingLines(a: string, b: string): number {
  const x = a.split("\n");
  const y = b.split("\n");
  let n = Math.abs(x.length - y.length);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) n++;
  return n;
}

async function run(): Promise<void> {
  await withScratchDir("splice-bench-docs-", async (dir) => {
    console.log(environment(dir));
    const rng = new Rng(SEED);
    const rows: DocsRow[] = [];
    const splice = createSplice({ root: dir, history: { session: "bench" } });

    // ---- JSON
    const json = bigJson(rng);
    const jsonFile = "5mb.json";
    const jsonPath = join(dir, jsonFile);
    writeFileSync(jsonPath, json.text);
    const jsonBytes = Buffer.byteLength(json.text);
    const jsonKey = `node_modules/pkg-${Math.floor(json.entries / 2)}`;
    const jsonSelector = `packages["${jsonKey}"].version`;
    const BASE_JSON = "baseline: JSON.parse+JSON.stringify";
    rows.push({
      operation: BASE_JSON,
      file: jsonFile,
      bytes: jsonBytes,
      stats: await measure(JSON_RUNS, () => JSON.stringify(JSON.parse(json.text), null, 2).length),
    });
    const openJson = editorFor("json", jsonFile);
    rows.push({
      operation: "doc.set (engine, in memory)",
      file: jsonFile,
      bytes: jsonBytes,
      baseline: BASE_JSON,
      stats: await measure(JSON_RUNS, (i) =>
        runDocAction(openJson, jsonFile, json.text, {
          action: "set",
          selector: jsonSelector,
          value: `9.9.${i}`,
        }),
      ),
    });
    rows.push({
      operation: "doc.set (tool, on disk)",
      file: jsonFile,
      bytes: jsonBytes,
      baseline: BASE_JSON,
      stats: await measure(
        {
          ...JSON_RUNS,
          after: (i) => {
            const set = JSON.parse(readFileSync(jsonPath, "utf8")).packages[jsonKey].version;
            if (set !== `8.8.${i}`) throw new Error(`doc.set did not land: ${set}`);
          },
        },
        (i) =>
          splice.call("doc", {
            action: "set",
            path: jsonFile,
            selector: jsonSelector,
            value: `8.8.${i}`,
          }),
      ),
    });

    // ---- YAML
    const yaml = bigYaml(rng);
    const yamlFile = "5mb.yaml";
    const yamlPath = join(dir, yamlFile);
    writeFileSync(yamlPath, yaml.text);
    const yamlBytes = Buffer.byteLength(yaml.text);
    const service = `svc-${Math.floor(yaml.entries / 2)}`;
    const yamlSelector = `services.${service}.environment.LOG_LEVEL`;
    // The yaml package's duplicate-key check is quadratic in a map's size; splice does it in
    // one pass, so the fair baseline turns it off. The defaults row shows what it costs.
    const plain = { merge: true, uniqueKeys: false } as const;
    const BASE_YAML = "baseline: yaml parse+stringify";
    rows.push({
      operation: BASE_YAML,
      file: yamlFile,
      bytes: yamlBytes,
      stats: await measure(YAML_RUNS, () => yamlStringify(yamlParse(yaml.text, plain)).length),
      note: "uniqueKeys off",
    });
    rows.push({
      operation: "yaml parse+stringify, defaults",
      file: yamlFile,
      bytes: yamlBytes,
      baseline: BASE_YAML,
      stats: await measure(
        { warmup: 0, runs: 2 },
        () => yamlStringify(yamlParse(yaml.text, { merge: true })).length,
      ),
      note: "quadratic unique-key check",
    });
    let documentApi = "";
    rows.push({
      operation: "yaml parseDocument+setIn+toString",
      file: yamlFile,
      bytes: yamlBytes,
      baseline: BASE_YAML,
      stats: await measure(YAML_RUNS, (i) => {
        const doc = yamlDocument(yaml.text, plain);
        doc.setIn(["services", service, "environment", "LOG_LEVEL"], `level-${i}`);
        documentApi = doc.toString();
      }),
    });
    rows.at(-1)!.note = `${differingLines(yaml.text, documentApi) - 1} other lines changed`;
    const openYaml = editorFor("yaml", yamlFile);
    let engineText = "";
    rows.push({
      operation: "doc.set (engine, in memory)",
      file: yamlFile,
      bytes: yamlBytes,
      baseline: BASE_YAML,
      stats: await measure(YAML_RUNS, (i) => {
        engineText = runDocAction(openYaml, yamlFile, yaml.text, {
          action: "set",
          selector: yamlSelector,
          value: `level-${i}`,
        }).text;
      }),
    });
    rows.at(-1)!.note = `${differingLines(yaml.text, engineText) - 1} other lines changed`;
    rows.push({
      operation: "doc.set (tool, on disk)",
      file: yamlFile,
      bytes: yamlBytes,
      baseline: BASE_YAML,
      stats: await measure(
        {
          ...YAML_RUNS,
          after: (i) => {
            if (!readFileSync(yamlPath, "utf8").includes(`LOG_LEVEL: tool-${i}   # per service`)) {
              throw new Error("doc.set did not land");
            }
          },
        },
        (i) =>
          splice.call("doc", {
            action: "set",
            path: yamlFile,
            selector: yamlSelector,
            value: `tool-${i}`,
          }),
      ),
    });

    // ---- patch row (the patch engineer's): push more DocsRow values here.
    rows.push(...(await patchRows(dir)));

    console.log(docsTable(rows));
    console.log(
      "\nRatios compare medians with the baseline of the same file in this run. The engine" +
        " rows parse the text, splice the value and parse the result again (the read-back" +
        " check); the tool rows add the read, the lock, history and the write.",
    );
  });
}

defineBenchmark({
  name: "docs",
  description: "doc.set on a 5 MB JSON and a 5 MB YAML vs parse+serialize",
  run,
});
