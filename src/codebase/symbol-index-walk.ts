/**
 * The symbol index's walk cache: per folder its inode and mtime, the stamp of
 * its .gitignore and of every one above it, and what the walk kept of it. A
 * warm walk lstat's each folder and reads again only folders whose stamps
 * changed (adding, removing or renaming an entry changes its folder's mtime;
 * a .gitignore edit changes its own stamp, which every folder below carries).
 * Entries are filtered by the walk's own `screenEntry`, so the cached walk and
 * `list` agree. A stamp only decides whether a folder is read again: names
 * still pass the guard when read, and bytes are read through the workspace.
 *
 * From its second walk on (a one-shot command walks once and never watches),
 * the cache watches the folders it holds: a folder no event touched since it
 * was checked needs no lstat, and the symbol index skips the lstat of files
 * the watch vouches for (see workspace/watch.ts).
 */
import { lstatSync } from "node:fs";
import path from "node:path";
import type { ChangeContext } from "../change/context.js";
import { ignoredBy, type Layer, loadLayer, screenEntry } from "../workspace/walk.js";
import { listing, TreeWatch } from "../workspace/watch.js";
import { indexHome } from "./symbol-index-store.js";

/**
 * A walk gives the event loop a turn at least this often. Its steps are
 * synchronous system calls between already-settled promises, so without a
 * turn a server walking a large or deep tree answers nothing until it ends.
 */
const TURN_MS = 20;

/** A turn of the event loop: pending I/O (a server's next request) runs first. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A stamp within this of its read may hide a change made in the same tick (git's racy rule). */
const RACY_MS = 2000;

interface Folder {
  stamp: string;
  /** The .gitignore chain from the walk's root down to this folder, as stamps. */
  chain: string;
  /** Visible entries of any kind (what the walk's `maxScanned` counts). */
  visible: number;
  files: string[];
  dirs: string[];
  /** Its own .gitignore, when it has one. */
  layer?: { stamp: string; rules: Layer };
}

type Stamped = { stamp: string; racy: boolean } | undefined;

function stampOf(abs: string, now: number): Stamped {
  try {
    const s = lstatSync(abs, { throwIfNoEntry: false });
    if (!s) return undefined;
    return {
      stamp: `${s.ino}:${s.size}:${s.mtimeMs}:${s.isDirectory()}`,
      racy: s.mtimeMs >= now - RACY_MS,
    };
  } catch {
    return undefined;
  }
}

export class WalkCache {
  readonly #folders = new Map<string, Folder>();
  readonly #ancestors = new Map<string, { stamp: string; rules: Layer | undefined }>();
  /** Bumped whenever a folder is read from disk or forgotten: the same count, the same files. */
  #generation = 0;
  /** The last list per start: returned again (the same array) while nothing changed. */
  readonly #lists = new Map<string, { generation: number; maxScanned: number; files: string[] }>();
  #walks = 0;
  /** The watch over the cached folders, from the second walk on. */
  watch: TreeWatch | undefined;

  /**
   * The root-relative paths of the regular files a walk of `start` (a folder,
   * guard-checked) would give, or undefined when the walk itself must answer
   * (a folder it could not read, an ignored start, more than `maxScanned`
   * entries): its warnings are worded there, once.
   */
  async files(
    context: ChangeContext,
    start: string,
    maxScanned: number,
  ): Promise<readonly string[] | undefined> {
    if (++this.#walks === 2) {
      this.watch = new TreeWatch();
      // A cache nobody holds any more still has open watches: they close with it.
      closeWhenCollected.register(this, this.watch);
    }
    await this.watch?.settle();
    const generation = this.#generation;
    const now = Date.now();
    const startRel = context.guard.relative(start);
    const rel0 = startRel === "." ? "" : startRel;
    const above = await this.#ancestorLayers(context, rel0, now);
    if (!above) return undefined;
    if (rel0 !== "" && ignoredBy(above.layers, rel0, true)) return undefined;
    const out: string[] = [];
    const seen = new Set<string>();
    let visible = 0;
    const queue = [{ abs: start, rel: rel0, layers: above.layers, chain: above.chain }];
    let lastTurn = performance.now();
    for (let q = 0; q < queue.length; q++) {
      if (performance.now() - lastTurn > TURN_MS) {
        await turn();
        lastTurn = performance.now();
      }
      const at = queue[q]!;
      seen.add(at.rel);
      const folder = await this.#folder(context, at, now);
      if (!folder) return undefined;
      visible += folder.visible;
      if (visible >= maxScanned) return undefined;
      out.push(...folder.files);
      const layers = folder.layer ? [...at.layers, folder.layer.rules] : at.layers;
      const chain = `${at.chain}/${folder.layer?.stamp ?? ""}`;
      for (const name of folder.dirs) {
        const rel = at.rel === "" ? name : `${at.rel}/${name}`;
        queue.push({ abs: path.join(at.abs, name), rel, layers, chain });
      }
    }
    // Folders no longer reached (removed, renamed, now ignored) are forgotten.
    const under = rel0 === "" ? "" : `${rel0}/`;
    for (const rel of this.#folders.keys()) {
      if ((rel === rel0 || rel.startsWith(under)) && !seen.has(rel)) {
        this.#folders.delete(rel);
        this.#generation++;
      }
    }
    const last = this.#lists.get(rel0);
    if (last && last.generation === generation && generation === this.#generation) {
      if (last.maxScanned === maxScanned) return last.files;
    }
    this.#lists.set(rel0, { generation: this.#generation, maxScanned, files: out });
    return out;
  }

  /** Stops the watch (the toolkit is closing); the cache itself stays valid. */
  close(): void {
    this.watch?.close();
    this.watch = undefined;
  }

  /** A folder's kept entries: the cached ones while its stamps hold, else read and screened. */
  async #folder(
    context: ChangeContext,
    at: { abs: string; rel: string; layers: Layer[]; chain: string },
    now: number,
  ): Promise<Folder | undefined> {
    const watch = this.watch;
    const cached = this.#folders.get(at.rel);
    // The watch starts before the folder is checked: a change after the check is an event.
    if (watch?.add(at.abs) && cached?.chain === at.chain) {
      if (watch.vouches(listing(at.abs))) return cached;
    }
    const ticket = watch?.ticket(listing(at.abs), at.abs);
    // The stamps are taken before the read: a change after them leaves a stamp that differs.
    const own = stampOf(at.abs, now);
    if (!own) return undefined;
    if (cached && cached.stamp === own.stamp && cached.chain === at.chain) {
      const ignore = cached.layer && stampOf(path.join(at.abs, ".gitignore"), now);
      if (!cached.layer || ignore?.stamp === cached.layer.stamp) {
        watch?.vouch(listing(at.abs), ticket, "", at.abs);
        return cached;
      }
    }
    this.#generation++;
    let entries: Awaited<ReturnType<ChangeContext["workspace"]["readDir"]>>;
    try {
      entries = await context.workspace.readDir(at.abs);
    } catch {
      return undefined;
    }
    let layer: Folder["layer"];
    let layers = at.layers;
    if (entries.some((e) => e.name === ".gitignore" && e.kind === "file")) {
      const ignore = stampOf(path.join(at.abs, ".gitignore"), now);
      const rules = await loadLayer(context.workspace, at.abs, at.rel);
      if (rules && ignore) {
        // A .gitignore changed within the racy window gets a stamp that never matches.
        layer = { stamp: ignore.racy ? `racy:${now}:${Math.random()}` : ignore.stamp, rules };
        layers = [...layers, rules];
      }
    }
    const folder: Folder = { stamp: own.stamp, chain: at.chain, visible: 0, files: [], dirs: [] };
    if (layer) folder.layer = layer;
    for (const entry of entries) {
      const hidden = entry.name.startsWith(".");
      const seen = screenEntry(context.guard, at, entry, layers, hidden);
      if (seen.verdict !== "ok") continue;
      folder.visible++;
      if (seen.kind === "file") folder.files.push(seen.rel);
      else if (seen.kind === "directory") folder.dirs.push(entry.name);
    }
    // A folder changed within the racy window is read again next time.
    if (!own.racy) {
      this.#folders.set(at.rel, folder);
      watch?.vouch(listing(at.abs), ticket, "", at.abs);
    } else this.#folders.delete(at.rel);
    return folder;
  }

  /** The .gitignore layers above the start folder (root first) and their chain of stamps. */
  async #ancestorLayers(
    context: ChangeContext,
    rel: string,
    now: number,
  ): Promise<{ layers: Layer[]; chain: string } | undefined> {
    const layers: Layer[] = [];
    let chain = "";
    if (rel === "") return { layers, chain };
    const parts = rel.split("/");
    for (let i = 0; i < parts.length; i++) {
      const dirRel = parts.slice(0, i).join("/");
      const abs = path.join(context.guard.root, dirRel);
      const stamp = stampOf(path.join(abs, ".gitignore"), now);
      let known = this.#ancestors.get(dirRel);
      if (!known || !stamp || stamp.racy || known.stamp !== stamp.stamp) {
        known = {
          stamp: stamp && !stamp.racy ? stamp.stamp : `racy:${now}:${Math.random()}`,
          rules: await loadLayer(context.workspace, abs, dirRel),
        };
        if (stamp) this.#ancestors.set(dirRel, known);
        else this.#ancestors.delete(dirRel);
      }
      if (!stamp) {
        chain += "/";
        continue;
      }
      if (known.rules) layers.push(known.rules);
      chain += `/${known.stamp}`;
    }
    return { layers, chain };
  }
}

/** Per guard: what one guard let through is never shown to a toolkit with another. */
let caches = new WeakMap<ChangeContext["guard"], WalkCache>();
/** The caches made, so `forgetWalkCaches` can stop their watches. */
const live = new Set<WeakRef<WalkCache>>();
const closeWhenCollected = new FinalizationRegistry<TreeWatch>((watch) => watch.close());

/** The walk cache of this context's root and guard, where it has a symbol index. */
export function walkCacheFor(context: ChangeContext): WalkCache | undefined {
  if (!indexHome(context)) return undefined;
  let cache = caches.get(context.guard);
  if (!cache) {
    cache = new WalkCache();
    caches.set(context.guard, cache);
    if (live.size >= 64) for (const ref of live) if (!ref.deref()) live.delete(ref);
    live.add(new WeakRef(cache));
  }
  return cache;
}

/** The watch of this context's walk cache, once it watches. */
export const watchFor = (context: Pick<ChangeContext, "guard">): TreeWatch | undefined =>
  caches.get(context.guard)?.watch;

/** Stops the watch of this guard's walk cache (a toolkit closing). */
export function closeWalkCache(guard: ChangeContext["guard"]): void {
  caches.get(guard)?.close();
}

/** Forgets every walk cache, as a new process starts without one (benches time cold walks). */
export function forgetWalkCaches(): void {
  for (const cache of live) cache.deref()?.close();
  live.clear();
  caches = new WeakMap();
}
