import fc from "fast-check";
import picomatch from "picomatch";
import { describe, expect, it } from "vitest";
import {
  ALWAYS_BLOCKED,
  DEFAULT_READ_BLOCKLIST,
  Rules,
  requiredLiteral,
} from "../../src/guard/rules.js";

/** A glob as pieces, so that a path it matches can be made from the same pieces. */
type Piece =
  | { kind: "lit"; text: string }
  | { kind: "star" | "globstar" | "any" | "slash" }
  | { kind: "brace" | "class" | "extglob"; options: string[]; op?: string };

const name = fc.stringMatching(/^[a-zA-Z0-9._-]{1,6}$/);
const piece: fc.Arbitrary<Piece> = fc.oneof(
  { weight: 4, arbitrary: name.map((text) => ({ kind: "lit" as const, text })) },
  fc.constant({ kind: "star" as const }),
  fc.constant({ kind: "globstar" as const }),
  fc.constant({ kind: "any" as const }),
  { weight: 2, arbitrary: fc.constant({ kind: "slash" as const }) },
  fc
    .array(name, { minLength: 1, maxLength: 3 })
    .map((options) => ({ kind: "brace" as const, options })),
  fc
    .array(fc.constantFrom("a", "b", "x", "."), { minLength: 1, maxLength: 3 })
    .map((options) => ({ kind: "class" as const, options })),
  fc
    .tuple(fc.constantFrom("!", "@", "+", "?", "*"), fc.array(name, { minLength: 1, maxLength: 2 }))
    .map(([op, options]) => ({ kind: "extglob" as const, options, op })),
);
const globOf = (pieces: Piece[], prefix: string) =>
  prefix +
  pieces
    .map((p) => {
      switch (p.kind) {
        case "lit":
          return p.text;
        case "star":
          return "*";
        case "globstar":
          return "**";
        case "any":
          return "?";
        case "slash":
          return "/";
        case "brace":
          return p.options.length > 1 ? `{${p.options.join(",")}}` : `{${p.options[0]},}`;
        case "class":
          return `[${p.options.join("")}]`;
        default:
          return `${p.op}(${p.options.join("|")})`;
      }
    })
    .join("");

/** A path made from the pieces (often one the glob matches), its case shuffled by `flips`. */
function pathOf(pieces: Piece[], pick: number[], flips: boolean[]): string {
  let k = 0;
  const next = () => pick[k++ % pick.length]!;
  const text = pieces
    .map((p) => {
      switch (p.kind) {
        case "lit":
          return p.text;
        case "star":
          return ["", "x", "ab.c"][next() % 3];
        case "globstar":
          return ["", "d", "d/e", ".git"][next() % 4];
        case "any":
          return ["q", "."][next() % 2];
        case "slash":
          return "/";
        default:
          return p.options[next() % p.options.length];
      }
    })
    .join("")
    .replace(/\/+/g, "/")
    .replace(/^\/|\/$/g, "");
  return [...text].map((c, i) => (flips[i % flips.length] ? c.toUpperCase() : c)).join("");
}

describe("requiredLiteral", () => {
  it("is in every path the glob matches, with or without case", () => {
    fc.assert(
      fc.property(
        fc.array(piece, { minLength: 1, maxLength: 7 }),
        fc.constantFrom("", "", "", "!", "./", "**/"),
        fc.array(fc.nat(), { minLength: 1, maxLength: 8 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }),
        (pieces, prefix, pick, flips) => {
          const glob = globOf(pieces, prefix);
          const literal = requiredLiteral(glob);
          const path = pathOf(pieces, pick, flips);
          for (const nocase of [false, true]) {
            let matches: boolean;
            try {
              matches = picomatch(glob, { dot: true, nocase })(path);
            } catch {
              return; // not a glob picomatch takes: the guard refuses it before any test
            }
            if (!matches || literal === undefined) continue;
            const hay = nocase ? path.toLowerCase() : path;
            expect(hay, `${glob} matched ${path}`).toContain(
              nocase ? literal.toLowerCase() : literal,
            );
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("keeps only the names a slash beside ** may lose", () => {
    expect(requiredLiteral("**/.git")).toBe(".git");
    expect(requiredLiteral("src/**")).toBe("src");
    expect(requiredLiteral("**/id_{rsa,dsa}*")).toBe("id_");
    expect(requiredLiteral("!src/**")).toBeUndefined();
    expect(requiredLiteral("**/*.{ts,js}")).toBeUndefined();
  });
});

describe("Rules with the literal prefilter", () => {
  // A case-blind regular expression folds "ς" to "Σ"; lowercase makes it no "σ": outside ASCII
  // the prefilter must step aside.
  const custom = [...DEFAULT_READ_BLOCKLIST, "**/Σχέδιο*"];
  const plain = [...ALWAYS_BLOCKED, ...custom].map((g) =>
    picomatch(g, { dot: true, nocase: true }),
  );
  const rules = new Rules({ readBlocklist: custom });
  const segment = fc.constantFrom(
    ".git",
    ".GIT",
    ".splice",
    ".env",
    ".Env.local",
    ".env.example",
    ".envrc",
    "id_rsa",
    "ID_ED25519.pub",
    "server.pem",
    "a.KEY",
    "src",
    "café.env",
    "x.\u212Aey",
    "ςχέδιο.txt",
    "ΣΧΈΔΙΟ",
    "notes.md",
  );
  it("refuses exactly the paths the lists' globs match", () => {
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 4 }), (parts) => {
        const path = parts.join("/");
        const refused = rules.refusal(path, path, "read") !== undefined;
        expect(refused, path).toBe(plain.some((test) => test(path)));
      }),
      { numRuns: 2000 },
    );
  });
});
