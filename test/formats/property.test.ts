/**
 * Random changes to the realistic fixtures: whatever the value, key or
 * place, the result must read back as the original data with exactly that
 * change, or the action must refuse and leave the text alone.
 */
import { parse as parseToml } from "@decimalturn/toml-patch";
import fc from "fast-check";
import { parse as parseJsonc } from "jsonc-parser";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import type { DocRequest } from "../../src/formats/actions.js";
import { DocError } from "../../src/formats/errors.js";
import { formatSelector, type Segment } from "../../src/formats/selector.js";
import { clone, isObject, toJson } from "../../src/formats/values.js";
import { fixture, run } from "./helpers.js";

type Data = any;

const READERS: Record<string, (text: string) => Data> = {
  "package.json": JSON.parse,
  "tsconfig.json": (text) => parseJsonc(text),
  "compose.yaml": (text) => parseYaml(text),
  "Cargo.toml": (text) => toJson(parseToml(text)),
  "edge.jsonc": (text) => parseJsonc(text),
  "edge.yaml": (text) => parseYaml(text),
};

/** Every path in the data, with what is there. */
function paths(data: Data, at: Segment[] = []): { path: Segment[]; value: Data }[] {
  const out = [{ path: at, value: data }];
  if (Array.isArray(data)) {
    for (const [i, v] of data.entries()) out.push(...paths(v, [...at, i]));
  } else if (isObject(data))
    for (const [k, v] of Object.entries(data)) out.push(...paths(v, [...at, k]));
  return out;
}

function at(data: Data, path: Segment[]): Data {
  return path.reduce((node, s) => node[s as never], data);
}

function merge(into: Data, patch: Record<string, Data>): void {
  for (const [k, v] of Object.entries(patch)) {
    if (isObject(into[k]) && isObject(v)) merge(into[k], v);
    else into[k] = clone(v);
  }
}

/** What the request means on plain data. */
function apply(data: Data, r: DocRequest, path: Segment[]): Data {
  const out = clone(data);
  const parent = at(out, path.slice(0, -1));
  const last = path.at(-1)!;
  switch (r.action) {
    case "set":
      parent[last] = clone(r.value);
      break;
    case "delete":
      if (Array.isArray(parent)) parent.splice(last as number, 1);
      else delete parent[last];
      break;
    case "append":
      at(out, path).push(clone(r.value));
      break;
    case "merge":
      merge(at(out, path), r.value as Record<string, Data>);
      break;
    default:
      throw new Error(r.action);
  }
  return out;
}

const key = fc.oneof(
  fc.constantFrom("new", "x-y", "a.b", "with space", "#hash", "on", "yes", "é", 'q"uote', "1"),
  fc.string({ minLength: 1, maxLength: 6 }),
);

const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom(
    "",
    " lead",
    "trail ",
    "a: b",
    "- x",
    "#c",
    "two\nlines",
    "tab\there",
    '"q"',
    "'s'",
    "null",
    "0777",
    "日本",
  ),
);

function values(nullable: boolean) {
  const leaf = fc.oneof(
    text,
    fc.integer({ min: -1000, max: 1000 }),
    fc.boolean(),
    ...(nullable ? [fc.constant(null)] : []),
  );
  return fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      leaf,
      fc.array(tie("value"), { maxLength: 3 }),
      fc.dictionary(key, tie("value"), { maxKeys: 3 }),
    ),
  })).value;
}

for (const name of Object.keys(READERS)) {
  describe(`${name}: random changes read back as exactly that change`, () => {
    const read = READERS[name]!;
    const original = fixture(name);
    const data = read(original);
    const all = paths(data).filter((p) => p.path.length > 0);
    const objects = paths(data).filter((p) => isObject(p.value));
    const arrays = paths(data).filter((p) => Array.isArray(p.value));
    const value = values(!name.endsWith(".toml"));

    const request = fc.oneof(
      fc.record({ target: fc.constantFrom(...all), value }).map(({ target, value }) => ({
        path: target.path,
        request: { action: "set", value } as DocRequest,
      })),
      fc
        .record({ target: fc.constantFrom(...objects), key, value })
        .map(({ target, key, value }) => ({
          path: [...target.path, key],
          request: { action: "set", value } as DocRequest,
        })),
      fc.constantFrom(...all).map((target) => ({
        path: target.path,
        request: { action: "delete" } as DocRequest,
      })),
      fc.record({ target: fc.constantFrom(...arrays), value }).map(({ target, value }) => ({
        path: target.path,
        request: { action: "append", value } as DocRequest,
      })),
      fc
        .record({
          target: fc.constantFrom(...objects),
          patch: fc.dictionary(key, value, { maxKeys: 3 }),
        })
        .map(({ target, patch }) => ({
          path: target.path,
          request: { action: "merge", value: patch } as DocRequest,
        })),
    );

    it("holds for 200 random changes", () => {
      fc.assert(
        fc.property(request, ({ path, request: r }) => {
          const selector = formatSelector(path);
          let out: ReturnType<typeof run>;
          try {
            out = run(name, { ...r, selector: path.length === 0 ? "" : selector });
          } catch (error) {
            // Only the whole document may be refused — and in TOML a value an array of
            // tables cannot hold (`[[bin]]` plus `false`): the read-back check catches it.
            expect(error).toBeInstanceOf(DocError);
            const readBack = ["read_back", "unsupported"].includes(
              String((error as DocError).details.reason),
            );
            expect(path.length === 0 || (readBack && name.endsWith(".toml")), String(error)).toBe(
              true,
            );
            return;
          }
          expect(read(out.text)).toEqual(apply(data, r, path));
        }),
        { numRuns: Number(process.env.DOC_PROPERTY_RUNS ?? 200) },
      );
    });
  });
}

describe("ci.yml (anchors, aliases, merge keys): random changes apply and still load, or are refused", () => {
  const original = fixture("ci.yml");
  const data = parseYaml(original, { merge: true });
  const all = paths(data).filter((p) => p.path.length > 0);
  const objects = paths(data).filter((p) => isObject(p.value));
  const request = fc.oneof(
    fc
      .record({ target: fc.constantFrom(...all), value: values(true) })
      .map(({ target, value }) => ({
        path: target.path,
        request: { action: "set", value } as DocRequest,
      })),
    fc
      .record({ target: fc.constantFrom(...objects), key, value: values(true) })
      .map(({ target, key, value }) => ({
        path: [...target.path, key],
        request: { action: "set", value } as DocRequest,
      })),
    fc
      .constantFrom(...all)
      .map((target) => ({ path: target.path, request: { action: "delete" } as DocRequest })),
  );

  it("holds for 200 random changes", () => {
    fc.assert(
      fc.property(request, ({ path, request: r }) => {
        let out: ReturnType<typeof run>;
        try {
          out = run("ci.yml", { ...r, selector: formatSelector(path) });
        } catch (error) {
          expect(error).toBeInstanceOf(DocError);
          expect(["shared", "anchor_in_use"], String(error)).toContain(
            (error as DocError).details.reason,
          );
          return;
        }
        const after = parseYaml(out.text, { merge: true });
        if (r.action === "set") expect(at(after, path)).toEqual(r.value);
        if (r.action === "delete" && out.removed === 1) {
          const parent = at(after, path.slice(0, -1));
          if (!Array.isArray(parent))
            expect(Object.hasOwn(parent, path.at(-1) as string)).toBe(false);
        }
      }),
      { numRuns: Number(process.env.DOC_PROPERTY_RUNS ?? 200) },
    );
  });
});
