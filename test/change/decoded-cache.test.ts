import { describe, expect, it } from "vitest";
import { type Decoded, DecodedCache } from "../../src/change/decoded-cache.js";
import { parseDocument } from "../../src/text/document.js";

const decoded = (text: string): Decoded => ({
  bytes: Buffer.from(text),
  doc: parseDocument(text),
  tag: "ABCD",
  sha: text,
});

describe("DecodedCache", () => {
  it("answers only for the very same bytes", () => {
    const cache = new DecodedCache(1024);
    const v1 = decoded("one\ntwo\n");
    cache.set("/a", v1);
    expect(cache.get("/a", Buffer.from("one\ntwo\n"))).toBe(v1);
    // Same length, one byte different: a miss, never the old version.
    expect(cache.get("/a", Buffer.from("one\ntwO\n"))).toBeUndefined();
    expect(cache.get("/b", Buffer.from("one\ntwo\n"))).toBeUndefined();
  });

  it("keeps the current version and the one before it", () => {
    const cache = new DecodedCache(1024);
    const [v1, v2, v3] = ["a\n", "b\n", "c\n"].map(decoded);
    cache.set("/f", v1!);
    cache.set("/f", v2!);
    expect(cache.get("/f", v1!.bytes)).toBe(v1);
    cache.set("/f", v3!);
    expect(cache.get("/f", v2!.bytes)).toBe(v2);
    expect(cache.get("/f", v3!.bytes)).toBe(v3);
    expect(cache.get("/f", v1!.bytes)).toBeUndefined();
  });

  it("freezes what it keeps, so no caller can change a shared document", () => {
    const cache = new DecodedCache(1024);
    const v = decoded("x\ny\n");
    cache.set("/f", v);
    expect(() => v.doc.lines.push("z")).toThrow(TypeError);
    expect(() => {
      (v.doc as { bom: boolean }).bom = true;
    }).toThrow(TypeError);
  });

  it("drops the least recently used files past its budget, and skips files too big to keep", () => {
    const cache = new DecodedCache(40);
    const a = decoded("a".repeat(9));
    const b = decoded("b".repeat(9));
    const c = decoded("c".repeat(9));
    cache.set("/a", a);
    cache.set("/b", b);
    cache.get("/a", a.bytes); // /a is now more recent than /b
    cache.set("/c", c);
    cache.set("/d", decoded("d".repeat(9)));
    cache.set("/e", decoded("e".repeat(9)));
    expect(cache.get("/b", b.bytes)).toBeUndefined();
    expect(cache.get("/a", a.bytes)).toBe(a);
    cache.set("/big", decoded("x".repeat(11))); // over a quarter of the budget
    expect(cache.get("/big", Buffer.from("x".repeat(11)))).toBeUndefined();
  });
});

describe("DecodedCache.withSha", () => {
  it("finds a kept version by the hash of its bytes, only under its own path", () => {
    const cache = new DecodedCache(1024);
    const v1 = decoded("one\n");
    cache.set("/f", v1);
    cache.set("/f", decoded("two\n"));
    expect(cache.withSha("/f", v1.sha)).toBe(v1);
    expect(cache.withSha("/g", v1.sha)).toBeUndefined();
    expect(cache.latest("/f")?.sha).toBe("two\n");
  });
});
