/**
 * The review page: backup sessions on the left (filtered by path, session and
 * tool), the picked session's diffs on the right, a file's own versions on
 * request. Every action previews first (the tool's own preview mode), shows
 * the diff it will write and the tool's warnings, and runs only when
 * confirmed. New sessions arrive over the server's event stream.
 */
import "diff2html/bundles/css/diff2html.min.css";
import "highlight.js/styles/github.css";
import "./page.css";
import {
  ApiError,
  api,
  counts,
  type FileHistory,
  type Session,
  type SessionFile,
  toolOf,
  whoOf,
} from "./api";
import { type Layout, renderDiff } from "./lazy-diff";
import { Timeline } from "./timeline";

function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "class") el.className = v;
    else el.setAttribute(k, v);
  }
  el.append(...children);
  return el;
}

const app = document.getElementById("app")!;
const pathFilter = h("input", { type: "search", placeholder: "path contains…", id: "f-path" });
const sessionFilter = h("select", { id: "f-session" });
const toolFilter = h("select", { id: "f-tool" });
const layoutPick = h(
  "select",
  { id: "layout" },
  h("option", { value: "side-by-side" }, "side by side"),
  h("option", { value: "line-by-line" }, "inline"),
);
const live = h("span", { class: "live", id: "live" }, "connecting…");
const countLine = h("span", { class: "muted", id: "count" });
const list = h("section", { class: "list", id: "timeline", role: "listbox" });
const detail = h("section", { class: "detail", id: "detail" });
const notice = h("div", { class: "notice", id: "notice", role: "status" });
const dialog = h("dialog", { id: "confirm" });

app.replaceChildren(
  h(
    "header",
    {},
    h("strong", {}, "splice review"),
    pathFilter,
    sessionFilter,
    toolFilter,
    layoutPick,
    countLine,
    live,
  ),
  notice,
  h("main", {}, list, detail),
  dialog,
);

/** The sessions loaded so far, newest first; `older` lists on past the last (undefined: none left). */
let sessions: Session[] = [];
let older: string | undefined;
let loadingOlder = false;
let shown: Session[] = [];
let picked: string | undefined;
/** What the right side shows: a session (with what was undone of it when drawn) or a file's history. */
let view: { session: string; state: string } | { history: string } | undefined;
let layout: Layout = "side-by-side";
let stopDiffs: (() => void)[] = [];

/** undo's ceiling for one page of its list. */
const PAGE = 200;

const timeline = new Timeline(
  list,
  (id) => pick(id),
  () => void loadOlder(),
);

function say(text: string, kind: "ok" | "error" = "ok"): void {
  notice.className = `notice ${kind}`;
  notice.textContent = text;
}

function options(select: HTMLSelectElement, label: string, values: string[]): void {
  const was = select.value;
  select.replaceChildren(
    h("option", { value: "" }, label),
    ...values.map((v) => h("option", { value: v }, v)),
  );
  select.value = values.includes(was) ? was : "";
}

function filter(): void {
  const path = pathFilter.value.trim();
  const session = sessionFilter.value;
  const tool = toolFilter.value;
  shown = sessions.filter(
    (s) =>
      (!path || s.files.some((f) => f.path.includes(path))) &&
      (!session || s.session === session) &&
      (!tool || toolOf(s) === tool),
  );
  const more = older === undefined ? "" : " loaded so far (more as you scroll)";
  countLine.textContent = `${shown.length} of ${sessions.length} sessions${more}`;
  timeline.show(shown, picked);
}

/** Puts the loaded sessions on the page. */
function showSessions(list: Session[]): void {
  sessions = list;
  options(sessionFilter, "every session", [...new Set(list.map((s) => s.session))].sort());
  options(toolFilter, "every tool", [...new Set(list.map(toolOf))].sort());
  filter();
  // The page opens on the newest session rather than an empty pane.
  const drawn = view;
  if (!drawn && picked === undefined && shown[0]) return pick(shown[0].backup_session);
  // A live update leaves what you are reading alone unless the session itself changed.
  if (!drawn || !("session" in drawn)) return;
  const still = sessions.find((s) => s.backup_session === drawn.session);
  if (!still) detail.replaceChildren(h("p", { class: "muted" }, "Pick a session."));
  else if (stateOf(still) !== drawn.state) drawSession(still);
}

/** What of a session can change after it is drawn: what is undone, and by which session. */
function stateOf(s: Session): string {
  return JSON.stringify([s.undone, s.files.map((f) => f.undone), undoer(s)?.backup_session]);
}

/**
 * Loads the newest page again (on start, after an action, on news) and
 * keeps the older pages loaded so far: they are the same sessions, except
 * those a new undo or redo changed, which are fetched again one by one
 * (the session just newer one is their `before`).
 */
async function reload(): Promise<void> {
  try {
    const fresh = await api.sessions({ limit: PAGE });
    const last = fresh.sessions.at(-1)?.backup_session;
    const at = sessions.findIndex((s) => s.backup_session === last);
    let list = fresh.sessions;
    if (at < 0 || fresh.next === undefined) {
      older = fresh.next; // The first load, or more new sessions than a page: start again.
    } else {
      const known = new Set(sessions.map((s) => s.backup_session));
      list = [...fresh.sessions, ...sessions.slice(at + 1)];
      await refreshTargets(
        list,
        fresh.sessions.length,
        fresh.sessions.filter((s) => !known.has(s.backup_session)),
      );
    }
    showSessions(list);
    document.body.dataset.loaded = String(Number(document.body.dataset.loaded ?? 0) + 1);
  } catch (error) {
    say((error as Error).message, "error");
  }
}

/** Fetches again the older sessions (past `fresh` rows of `list`) that the new ones undid or redid. */
async function refreshTargets(list: Session[], fresh: number, added: Session[]): Promise<void> {
  const index = new Map(list.map((s, i) => [s.backup_session, i]));
  const stale = new Set<number>();
  for (const s of added) {
    // A redo undoes an undo, which undid a change: each of them changed state.
    for (let id = s.undoes; id !== undefined; ) {
      const i = index.get(id);
      if (i === undefined || stale.has(i)) break;
      if (i >= fresh) stale.add(i);
      id = list[i]!.undoes;
    }
  }
  await Promise.all(
    [...stale].map(async (i) => {
      const page = await api.sessions({ before: list[i - 1]!.backup_session, limit: 1 });
      const again = page.sessions[0];
      if (again?.backup_session === list[i]!.backup_session) list[i] = again;
    }),
  );
}

/** Loads the next page of older sessions, when there is one and none is loading. */
async function loadOlder(): Promise<void> {
  const before = older;
  if (before === undefined || loadingOlder) return;
  loadingOlder = true;
  try {
    const page = await api.sessions({ before, limit: PAGE });
    // A reload may have started over meanwhile: only a page that still follows is added.
    if (older === before) {
      older = page.next;
      showSessions([...sessions, ...page.sessions]);
    }
  } catch (error) {
    if (error instanceof ApiError && error.code === "not_found" && older === before) {
      // History dropped the session the next page starts after (bounded, collected): start over.
      sessions = [];
      older = undefined;
      void reload();
    } else say((error as Error).message, "error");
  } finally {
    loadingOlder = false;
  }
}

function clearDiffs(): void {
  for (const stop of stopDiffs) stop();
  stopDiffs = [];
}

function diffBox(diff: string, scroller: HTMLElement): HTMLElement {
  const box = h("div", { class: "diff" });
  stopDiffs.push(renderDiff(box, diff, layout, scroller));
  return box;
}

/** The session that undid `s` and is itself still in effect: undoing it redoes `s`. */
function undoer(s: Session): Session | undefined {
  return sessions.find((x) => x.undoes === s.backup_session && !x.undone);
}

function button(label: string, action: string, run: () => void, extra = {}): HTMLButtonElement {
  const b = h("button", { type: "button", "data-action": action, ...extra }, label);
  b.addEventListener("click", run);
  return b;
}

function fileCard(s: Session, f: SessionFile): HTMLElement {
  const c = counts(f.diff);
  const actions = h("span", { class: "actions" });
  if (!f.undone && !s.is_undo) {
    actions.append(
      button(
        "Undo this file",
        "undo-file",
        () =>
          act(`Undo ${f.path} of ${s.backup_session}`, "undo", {
            backup_session: s.backup_session,
            path: f.path,
          }),
        { "data-path": f.path },
      ),
    );
  }
  actions.append(
    button("History", "history", () => void showHistory(f.path), { "data-path": f.path }),
  );
  return h(
    "article",
    { class: "file", "data-path": f.path },
    h(
      "div",
      { class: "file-head" },
      h("span", { class: "path" }, f.path),
      h("span", { class: "muted" }, f.action),
      h("span", { class: "plus" }, `+${c.added}`),
      h("span", { class: "minus" }, `−${c.removed}`),
      ...(f.undone ? [h("span", { class: "badge undone" }, "undone")] : []),
      actions,
    ),
    diffBox(f.diff, detail),
  );
}

function drawSession(s: Session): void {
  clearDiffs();
  const head = h(
    "div",
    { class: "session-head" },
    h("h2", {}, s.backup_session),
    h(
      "p",
      { class: "muted" },
      `${new Date(s.at).toLocaleString()} · ${toolOf(s)} · ${whoOf(s)}${s.undoes ? ` · undoes ${s.undoes}` : ""}`,
    ),
  );
  const actions = h("div", { class: "actions" });
  const open = s.files.some((f) => !f.undone);
  if (s.is_undo && !s.undone) {
    actions.append(
      button("Redo (undo this undo)", "redo", () =>
        act(`Redo ${s.undoes ?? ""} by undoing ${s.backup_session}`, "undo", {
          backup_session: s.backup_session,
        }),
      ),
    );
  } else if (!s.is_undo && open) {
    actions.append(
      button("Undo session", "undo-session", () =>
        act(`Undo ${s.backup_session}`, "undo", { backup_session: s.backup_session }),
      ),
    );
  }
  const by = undoer(s);
  if (!s.is_undo && by) {
    actions.append(
      button("Redo", "redo", () =>
        act(`Redo ${s.backup_session} by undoing ${by.backup_session}`, "undo", {
          backup_session: by.backup_session,
        }),
      ),
    );
  }
  const hidden = s.hidden_files
    ? [h("p", { class: "muted" }, `${s.hidden_files} more file(s) you may not read.`)]
    : [];
  const rule = h("p", { class: "muted help" }, UNDO_RULE);
  detail.replaceChildren(head, actions, rule, ...hidden, ...s.files.map((f) => fileCard(s, f)));
  detail.scrollTop = 0;
  view = { session: s.backup_session, state: stateOf(s) };
}

function pick(id: string): void {
  picked = id;
  timeline.show(shown, picked);
  const s = sessions.find((x) => x.backup_session === id);
  if (s) drawSession(s);
}

async function showHistory(path: string): Promise<void> {
  let history: FileHistory;
  try {
    history = await api.history(path);
  } catch (error) {
    say((error as Error).message, "error");
    return;
  }
  clearDiffs();
  view = { history: history.path };
  const rows = history.versions.map((v) =>
    h(
      "tr",
      { "data-hash": v.file_hash },
      h("td", { class: "tag" }, v.file_hash),
      h("td", {}, v.made_by ? new Date(v.made_by.at).toLocaleString() : ""),
      h("td", { class: "made" }, madeBy(v)),
      h("td", { class: "who" }, v.made_by ? sessionName(v.made_by) : ""),
      h("td", {}, `${v.size} B`),
      h(
        "td",
        {},
        v.current
          ? h("span", { class: "badge" }, "current")
          : button("Roll back to this", "rollback", () =>
              act(`Roll ${history.path} back to ${v.file_hash}`, "rollback", {
                path: history.path,
                hash: v.file_hash,
              }),
            ),
      ),
    ),
  );
  detail.replaceChildren(
    h(
      "div",
      { class: "session-head" },
      h("h2", {}, history.path),
      h("p", { class: "muted" }, `now ${history.current_hash ?? "absent"} · newest first`),
    ),
    button("Back to the session", "back", () => {
      const s = sessions.find((x) => x.backup_session === picked);
      if (s) drawSession(s);
    }),
    h(
      "table",
      { class: "versions" },
      h(
        "thead",
        {},
        h("tr", {}, ...["tag", "made", "by", "session", "size", ""].map((t) => h("th", {}, t))),
      ),
      h("tbody", {}, ...rows),
    ),
  );
}

/**
 * What wrote a version: the tool of the call that did; a version splice did
 * not write came from outside (git, an editor), seen when it was replaced.
 */
function madeBy(v: FileHistory["versions"][number]): string {
  if (v.made_by) return v.made_by.tool ?? v.kind;
  return v.replaced
    ? `outside splice (replaced ${new Date(v.at).toLocaleString()})`
    : "outside splice";
}

function sessionName(m: NonNullable<FileHistory["versions"][number]["made_by"]>): string {
  return m.client && m.client !== m.session ? `${m.session} (${m.client})` : m.session;
}

/** What undo says of every session: the rule behind its buttons. */
const UNDO_RULE =
  "Undo reverts only this session's own lines in the files as they are now: later changes (other sessions, an editor, a formatter) are kept where they do not overlap them. Where they overlap, nothing is undone; undo the later sessions first, or force a wholesale restore (what the files hold now is backed up first).";

/** An undo refused because later changes overlap: the tool's reasons, and the same choices. */
function refused(title: string, args: { backup_session: string; path?: string }, why: string) {
  const force = button("Force: restore wholesale", "force", () => {
    dialog.close();
    void act(`${title} (forced)`, "undo", { ...args, force: true });
  });
  const cancel = button("Cancel", "cancel", () => dialog.close());
  dialog.replaceChildren(
    h("h2", { class: "dialog-title" }, `${title}: refused (conflict)`),
    h("p", { class: "warning" }, why),
    h("p", { class: "muted" }, UNDO_RULE),
    h("div", { class: "actions" }, cancel, force),
  );
  dialog.showModal();
}

type Action =
  | { tool: "undo"; args: { backup_session: string; path?: string; force?: boolean } }
  | { tool: "rollback"; args: { path: string; hash: string } };

function run(a: Action, preview: boolean) {
  return a.tool === "undo" ? api.undo(a.args, preview) : api.rollback(a.args, preview);
}

/** Previews the action, asks, then applies it; a refusal is shown as the tool said it. */
async function act(title: string, tool: Action["tool"], args: Action["args"]): Promise<void> {
  const action = { tool, args } as Action;
  let preview: Awaited<ReturnType<typeof run>>;
  try {
    preview = await run(action, true);
  } catch (error) {
    if (error instanceof ApiError && error.code === "conflict" && action.tool === "undo") {
      refused(title, action.args, error.message);
      return;
    }
    say((error as Error).message, "error");
    return;
  }
  const files = "files" in preview ? preview.files : [preview];
  const body = h("div", { class: "dialog-body" });
  for (const f of files) {
    body.append(
      h("h3", {}, `${f.path}${"action" in f ? ` (${f.action})` : ""}`),
      ...f.warnings.map((w) => h("p", { class: "warning" }, w)),
      diffBox(f.diff, body),
    );
  }
  const confirm = button("Confirm", "confirm", () => void apply());
  const cancel = button("Cancel", "cancel", () => dialog.close());
  dialog.replaceChildren(
    h("h2", { class: "dialog-title" }, title),
    h("p", { class: "muted" }, "This is what it will write:"),
    body,
    h("div", { class: "actions" }, cancel, confirm),
  );
  dialog.showModal();
  async function apply() {
    confirm.disabled = true;
    confirm.textContent = "Applying…";
    // A write waits for its checks (syntax, a language server's verdict): say so when it shows.
    const status = h("p", { class: "muted waiting" });
    dialog.append(status);
    const waiting = setTimeout(() => {
      status.textContent =
        "Writing, then checking the result (a language server that is still starting can take a few seconds)…";
    }, 700);
    try {
      const done = await run(action, false);
      dialog.close();
      const redo = done.backup_session ? ` Its own backup session: ${done.backup_session}.` : "";
      say(`${title}: done.${redo}`);
    } catch (error) {
      dialog.close();
      const code = error instanceof ApiError ? ` (${error.code})` : "";
      say(`${(error as Error).message}${code}`, "error");
    } finally {
      clearTimeout(waiting);
    }
    await reload();
    // A rollback from a file's history: show its new versions.
    if (view && "history" in view) await showHistory(view.history);
  }
}

pathFilter.addEventListener("input", filter);
sessionFilter.addEventListener("change", filter);
toolFilter.addEventListener("change", filter);
layoutPick.addEventListener("change", () => {
  layout = layoutPick.value as Layout;
  const drawn = view;
  const s = drawn && "session" in drawn && sessions.find((x) => x.backup_session === drawn.session);
  if (s) drawSession(s);
});

const source = api.events((by) => {
  live.textContent = "live: new changes";
  // Who noticed: this process's tools, or the history folder (another process).
  live.dataset.by = by;
  void reload();
});
let opened = 0;
source.addEventListener("open", () => {
  live.textContent = "live";
  // A reconnect may have missed news while the stream was down: load again.
  if (opened++ > 0) void reload();
});
source.addEventListener("error", () => {
  live.textContent = "reconnecting…";
});

void reload();
