/**
 * Whether a grammar's native library can be handed to ast-grep. ast-grep's
 * `registerDynamicLanguage` loads every library with dlopen and, when one
 * fails (not a shared object, another architecture, missing), panics in Rust
 * and aborts the whole process: no JavaScript error to catch. So a library
 * is read before it is registered, and one that cannot load on this machine
 * is left out with the reason, while every other grammar goes on working.
 *
 * The check reads the file's header (ELF, Mach-O or PE, as this platform
 * loads): its kind (a shared library, not an executable or text), word size,
 * byte order and machine; and on ELF, that its dynamic symbols name the
 * grammar's entry point (a missing symbol panics the same way). A library
 * that passes and still fails inside the loader (a damaged body) is not
 * caught here.
 */
import { closeSync, openSync, readSync } from "node:fs";
import { endianness } from "node:os";

/** What a header says about where a library runs. */
interface Machine {
  elf: number;
  bits: 32 | 64;
  /** Mach-O cputype (with the 64-bit flag). */
  macho?: number;
  /** PE Machine field. */
  pe?: number;
}

/** This process's architecture as each format names it (`process.arch` values). */
const MACHINES: Readonly<Record<string, Machine>> = {
  x64: { elf: 62, bits: 64, macho: 0x01000007, pe: 0x8664 },
  arm64: { elf: 183, bits: 64, macho: 0x0100000c, pe: 0xaa64 },
  ia32: { elf: 3, bits: 32, macho: 7, pe: 0x014c },
  arm: { elf: 40, bits: 32, macho: 12, pe: 0x01c4 },
  riscv64: { elf: 243, bits: 64 },
  ppc64: { elf: 21, bits: 64 },
  s390x: { elf: 22, bits: 64 },
  loong64: { elf: 258, bits: 64 },
};

/** ELF e_machine numbers, to name the architecture a wrong library was built for. */
const ELF_NAMES: Readonly<Record<number, string>> = Object.fromEntries(
  Object.entries(MACHINES).map(([arch, m]) => [m.elf, arch]),
);

const HEAD_BYTES = 4096;

/** `length` bytes of `file` from `at` (fewer at its end). */
function bytesAt(file: string, at: number, length: number): Buffer {
  const fd = openSync(file, "r");
  try {
    const buffer = Buffer.alloc(length);
    return buffer.subarray(0, readSync(fd, buffer, 0, length, at));
  } finally {
    closeSync(fd);
  }
}

const head = (file: string) => bytesAt(file, 0, HEAD_BYTES);

/** Larger tables than these are not a grammar's: the check is skipped rather than read them. */
const MAX_SECTIONS = 4096;
const MAX_DYNSTR = 16 * 1024 * 1024;

/**
 * Whether an ELF library's dynamic string table names `symbol`; undefined
 * when that cannot be told (no section headers, an odd layout), so only a
 * table that plainly lacks it refuses the library.
 */
function elfNamesSymbol(file: string, bytes: Buffer, symbol: string): boolean | undefined {
  const wide = bytes[4] === 2;
  if (bytes.length < (wide ? 64 : 52) || bytes[5] !== 1) return undefined; // little-endian only
  const num = (b: Buffer, at: number, size: 4 | 8) =>
    size === 8 ? Number(b.readBigUInt64LE(at)) : b.readUInt32LE(at);
  const word = wide ? 8 : 4;
  const tableAt = num(bytes, wide ? 0x28 : 0x20, word);
  const entry = bytes.readUInt16LE(wide ? 0x3a : 0x2e);
  const count = bytes.readUInt16LE(wide ? 0x3c : 0x30);
  if (tableAt === 0 || count === 0 || count > MAX_SECTIONS || entry < (wide ? 64 : 40)) {
    return undefined;
  }
  const table = bytesAt(file, tableAt, entry * count);
  if (table.length < entry * count) return undefined;
  const section = (i: number) => ({
    type: table.readUInt32LE(i * entry + 4),
    offset: num(table, i * entry + (wide ? 24 : 16), word),
    size: num(table, i * entry + (wide ? 32 : 20), word),
    link: table.readUInt32LE(i * entry + (wide ? 40 : 24)),
  });
  for (let i = 0; i < count; i++) {
    const dynsym = section(i);
    if (dynsym.type !== 11 || dynsym.link >= count) continue; // SHT_DYNSYM
    const strings = section(dynsym.link);
    if (strings.size > MAX_DYNSTR) return undefined;
    return bytesAt(file, strings.offset, strings.size).includes(`\0${symbol}\0`, 0, "latin1");
  }
  return undefined;
}

const here = `${process.platform}-${process.arch}`;

function elfProblem(bytes: Buffer, machine: Machine | undefined): string | undefined {
  if (bytes.length < 20 || bytes.readUInt32BE(0) !== 0x7f454c46) {
    return "it is not an ELF shared library";
  }
  const bits = bytes[4] === 2 ? 64 : 32;
  const little = bytes[5] === 1;
  if ((endianness() === "LE") !== little) {
    return `it is built for ${little ? "little" : "big"}-endian machines, not this ${here}`;
  }
  const type = little ? bytes.readUInt16LE(16) : bytes.readUInt16BE(16);
  if (type !== 3) return "it is an ELF file but not a shared library";
  const elf = little ? bytes.readUInt16LE(18) : bytes.readUInt16BE(18);
  if (machine && (elf !== machine.elf || bits !== machine.bits)) {
    return `it is built for ${ELF_NAMES[elf] ?? `machine ${elf}`} (${bits}-bit), not this ${here}`;
  }
  return undefined;
}

function machoProblem(bytes: Buffer, machine: Machine | undefined): string | undefined {
  if (bytes.length >= 8 && bytes.readUInt32BE(0) === 0xcafebabe) {
    // A universal library: one slice per architecture.
    const count = bytes.readUInt32BE(4);
    for (let i = 0; i < count && 8 + 20 * i + 4 <= bytes.length; i++) {
      if (!machine?.macho || bytes.readUInt32BE(8 + 20 * i) === machine.macho) return undefined;
    }
    return `it is a universal library without a slice for this ${here}`;
  }
  const magic = bytes.length >= 16 ? bytes.readUInt32LE(0) : 0;
  if (magic !== 0xfeedfacf && magic !== 0xfeedface) return "it is not a Mach-O library";
  const type = bytes.readUInt32LE(12);
  if (type !== 6 && type !== 8) return "it is a Mach-O file but not a library";
  if (machine?.macho !== undefined && bytes.readUInt32LE(4) !== machine.macho) {
    return `it is built for another architecture, not this ${here}`;
  }
  return undefined;
}

function peProblem(bytes: Buffer, machine: Machine | undefined): string | undefined {
  if (bytes.length < 64 || bytes.toString("latin1", 0, 2) !== "MZ") return "it is not a DLL";
  const at = bytes.readUInt32LE(0x3c);
  if (at + 24 > bytes.length || bytes.readUInt32BE(at) !== 0x50450000) return "it is not a DLL";
  if ((bytes.readUInt16LE(at + 22) & 0x2000) === 0) return "it is a program, not a DLL";
  if (machine?.pe !== undefined && bytes.readUInt16LE(at + 4) !== machine.pe) {
    return `it is built for another architecture, not this ${here}`;
  }
  return undefined;
}

/**
 * Why the library at `file` cannot be loaded here, as the end of a sentence
 * ("it is not an ELF shared library"), or undefined when its header fits.
 */
export function libraryProblem(file: string): string | undefined {
  let bytes: Buffer;
  try {
    bytes = head(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" ? "it does not exist" : `it cannot be read (${code ?? error})`;
  }
  if (bytes.length === 0) return "it is empty";
  const machine = MACHINES[process.arch];
  if (process.platform === "darwin") return machoProblem(bytes, machine);
  if (process.platform === "win32") return peProblem(bytes, machine);
  return elfProblem(bytes, machine);
}

/** What a grammar package exports: the fields ast-grep reads (`libraryPath` may be a getter that throws). */
export interface GrammarRegistration {
  libraryPath: string;
  extensions: string[];
  languageSymbol?: string;
  expandoChar?: string;
}

/** Why `symbol` cannot be found in the library at `file`, or undefined when it is there or cannot be told. */
export function symbolProblem(file: string, symbol: string): string | undefined {
  if (process.platform === "darwin" || process.platform === "win32") return undefined;
  try {
    const names = elfNamesSymbol(file, head(file), symbol);
    return names === false ? `it has no symbol ${symbol}` : undefined;
  } catch {
    return undefined;
  }
}

/** Why a grammar package's registration cannot be handed to ast-grep, or undefined when it can. */
export function registrationProblem(registration: unknown): string | undefined {
  if (typeof registration !== "object" || registration === null) {
    return "its package exports no grammar";
  }
  let library: unknown;
  try {
    library = (registration as GrammarRegistration).libraryPath;
  } catch (error) {
    return `its package found no grammar library for this ${here} (${error instanceof Error ? error.message : String(error)})`;
  }
  if (typeof library !== "string" || library === "") {
    return "its package names no grammar library";
  }
  const symbol = (registration as GrammarRegistration).languageSymbol;
  const problem =
    libraryProblem(library) ??
    (typeof symbol === "string" ? symbolProblem(library, symbol) : undefined);
  return problem && `its grammar library ${library} cannot be loaded: ${problem}`;
}
