/**
 * The POSIX sh scripts a RemoteWorkspace runs on the far side, one per
 * operation and each one round trip. They need sh and coreutils there
 * (stat -c, realpath or readlink -f; sha256sum, shasum or openssl for a
 * compare-and-swap). Every script answers on stdout with one status line,
 * then any bytes: `OK ...`, `M` (nothing there), `R` (a compare refused),
 * or `E kind detail` (a refusal the caller turns into an error). Paths come
 * in as quoted words, never spliced into the code.
 */
import { STATE_FOLDER } from "../../util/state-folder.js";
import { shQuote } from "./transport.js";

/**
 * The lines every script starts with. `R` is the real root the paths must
 * stay in ("" when unconfined); `inside` resolves a path there (links
 * followed, missing names kept) and refuses one that leads out. `U`, when
 * given, is a writer lock the script lets go as it ends, whatever its answer:
 * the write that was the last thing done under it needs no trip of its own.
 */
function prelude(root: string, args: readonly (string | number)[], unlock = ""): string {
  return `set -- ${args.map((a) => shQuote(String(a))).join(" ")}
R=${shQuote(root)}
U=${shQuote(unlock)}
unlock() { [ -z "$U" ] || rmdir -- "$U" 2>/dev/null; }
[ -z "$U" ] || trap unlock EXIT
fail() { printf 'E %s %s\\n' "$1" "$2"; exit 0; }
real() { realpath -m -- "$1" 2>/dev/null || readlink -f -- "$1" 2>/dev/null; }
inside() {
  [ -z "$R" ] && return 0
  r=$(real "$1")
  [ -n "$r" ] || fail no_tool 'realpath -m (or readlink -f)'
  case "$r" in "$R"|"$R"/*) ;; *) fail escape "$r" ;; esac
}
`;
}

/** Picks the hash tool there; none is an error the caller names. */
const HASH = `if command -v sha256sum >/dev/null 2>&1; then H=sha256sum
elif command -v shasum >/dev/null 2>&1; then H='shasum -a 256'
elif command -v openssl >/dev/null 2>&1; then H='openssl dgst -sha256 -r'
else fail no_tool 'sha256sum, shasum or openssl'; fi
held() { if [ -f "$1" ]; then $H < "$1" | cut -d' ' -f1; elif [ -e "$1" ] || [ -L "$1" ]; then echo other; else echo null; fi; }
`;

/** The real root (`~` is the home folder there), checked to be a folder. */
export function rootScript(root: string): string {
  return `${prelude("", [root])}case "$1" in "~") set -- "$HOME" ;; "~/"*) set -- "$HOME/\${1#??}" ;; esac
[ -d "$1" ] || fail missing "$1"
r=$(real "$1"); [ -n "$r" ] || fail no_tool 'realpath -m (or readlink -f)'
printf 'OK %s\n' "$r"`;
}

/** A file this small comes with its stat: the read that usually follows needs no trip. */
export const SNAPSHOT_BYTES = 256 * 1024;

/**
 * `OK kind size mode mtime` (links followed), or M; a regular file of at
 * most SNAPSHOT_BYTES adds ` B` and its bytes after the line.
 */
const SNAPSHOT = `if [ -d "$1" ]; then k=directory; elif [ -f "$1" ]; then k=file; elif [ -e "$1" ]; then k=other; else echo M; exit 0; fi
set -- "$1" $(stat -L -c '%s %a %Y' -- "$1")
if [ $k = file ] && [ "$2" -le ${SNAPSHOT_BYTES} ] && [ -r "$1" ]; then echo "OK $k $2 $3 $4 B"; exec cat -- "$1"; fi
echo "OK $k $2 $3 $4"`;

export function statScript(root: string, path: string): string {
  return `${prelude(root, [path])}inside "$1"
${SNAPSHOT}`;
}

/** `OK size mode mtime` and the bytes, in one trip. */
export function readScript(root: string, path: string): string {
  return `${prelude(root, [path])}inside "$1"
if [ -d "$1" ]; then fail is_directory -; elif [ ! -e "$1" ]; then echo M; exit 0; elif [ ! -f "$1" ]; then fail not_a_file -; fi
printf 'OK '; stat -L -c '%s %a %Y' -- "$1" && exec cat -- "$1"`;
}

/**
 * Stages stdin beside the target: a temp file in its folder, its size
 * checked (a sender cut off mid-way leaves a short file, which is dropped,
 * never renamed into place), its mode the given one, else the old file's,
 * else 644. Temp files older than an hour, left by a lost connection, go.
 */
const STAGE = `inside "$1"
mkdir -p -- "$1" 2>/dev/null || fail io "cannot create the folder"
F="$1/$2"; T="$1/$3"
if [ -d "$F" ] && [ ! -L "$F" ]; then fail is_directory -; fi
find "$1" -maxdepth 1 -name '.*splice-*.tmp' -mmin +60 -exec rm -f {} + 2>/dev/null
trap 'rm -f -- "$T"; unlock' EXIT HUP INT TERM PIPE
(umask 077; cat > "$T") || fail io "cannot write in the folder"
[ "$(($(wc -c < "$T")))" -eq "$4" ] || fail io "the bytes arrived cut short"
M=$5
if [ -z "$M" ]; then if [ -f "$F" ] && [ ! -L "$F" ]; then M=$(stat -c %a -- "$F"); else M=644; fi; fi
chmod "$M" "$T" || fail io "cannot set the mode"
`;

/**
 * The swap: compares what is at the target with $6 (when given) right
 * before the rename, and once more after it through a hard link to the
 * replaced file, so bytes another program wrote in that instant come back
 * after `OK D` instead of being lost.
 */
const SWAP = `O=
if [ -n "$6" ]; then
  [ "$(held "$F")" = "$6" ] || { echo R; exit 0; }
  O="$T.old"; [ -f "$F" ] && [ ! -L "$F" ] && ln -- "$F" "$O" 2>/dev/null || O=
fi
mv -f -- "$T" "$F" || fail io "cannot rename into place"
trap unlock EXIT
if [ -n "$O" ]; then
  if [ "$(held "$O")" = "$6" ]; then rm -f -- "$O"; echo OK; else echo 'OK D'; cat -- "$O"; rm -f -- "$O"; fi
else echo OK; fi`;

export interface WriteArgs {
  dir: string;
  name: string;
  temp: string;
  size: number;
  mode: number | undefined;
}

const writeWords = (w: WriteArgs) => [
  w.dir,
  w.name,
  w.temp,
  w.size,
  w.mode === undefined ? "" : w.mode.toString(8),
];

/** Stage and rename: a plain atomic write. */
export function writeScript(root: string, w: WriteArgs): string {
  return `${prelude(root, [...writeWords(w), ""])}${STAGE}${SWAP}`;
}

/**
 * The compare-and-swap. `commit` false stops after the compare with the
 * temp file kept (`OK staged`), for history to record before the swap, done
 * by swapScript; `unlock` (with `commit`) is the lock to let go at the end.
 */
export function writeIfScript(
  root: string,
  w: WriteArgs,
  expected: string,
  commit: boolean,
  unlock = "",
): string {
  const stop = `[ "$(held "$F")" = "$6" ] || { echo R; exit 0; }\ntrap unlock EXIT; echo 'OK staged'`;
  return `${prelude(root, [...writeWords(w), expected], commit ? unlock : "")}${HASH}${STAGE}${commit ? SWAP : stop}`;
}

/** The second half of a compare-and-swap whose first half staged the temp file. */
export function swapScript(root: string, w: WriteArgs, expected: string, unlock = ""): string {
  return `${prelude(root, [...writeWords(w), expected], unlock)}${HASH}inside "$1"
F="$1/$2"; T="$1/$3"
[ -f "$T" ] || fail io "the staged file is gone"
trap 'rm -f -- "$T"; unlock' EXIT HUP INT TERM PIPE
${SWAP}`;
}

/** Drops a staged temp file (history failed, or the call was cancelled). */
export function discardScript(root: string, dir: string, temp: string, unlock = ""): string {
  return `${prelude(root, [dir, temp], unlock)}inside "$1"; rm -f -- "$1/$2"; echo OK`;
}

export function removeScript(root: string, dir: string, name: string): string {
  return `${prelude(root, [dir, name])}inside "$1"
F="$1/$2"
if [ -d "$F" ] && [ ! -L "$F" ]; then fail is_directory -; fi
rm -f -- "$F" 2>/dev/null || fail io "cannot remove it"
echo OK`;
}

/**
 * Compare-and-remove: the file is moved aside first, so the bytes compared
 * are the bytes removed; a mismatch is put back, never over a newer file.
 */
export function removeIfScript(
  root: string,
  dir: string,
  name: string,
  expected: string,
  aside: string,
): string {
  return `${prelude(root, [dir, name, expected, aside])}${HASH}inside "$1"
F="$1/$2"
if [ -L "$F" ]; then F=$(real "$F"); inside "$F"; fi
[ -f "$F" ] || { echo R; exit 0; }
A="$(dirname -- "$F")/$4"
mv -- "$F" "$A" 2>/dev/null || { echo R; exit 0; }
if [ "$(held "$A")" = "$3" ]; then rm -f -- "$A"; echo OK; exit 0; fi
if ln -- "$A" "$F" 2>/dev/null || [ -e "$F" ]; then rm -f -- "$A"; else mv -- "$A" "$F"; fi
echo R`;
}

/** `OK` then `kind name\\0` per entry (f, d, l, o), or M when there is no folder. */
export function readDirScript(root: string, path: string): string {
  return `${prelude(root, [path])}inside "$1"
[ -d "$1" ] || { echo M; exit 0; }
cd -- "$1" 2>/dev/null || fail io "cannot enter the folder"
echo OK
for f in * .[!.]* ..?*; do
  if [ -L "$f" ]; then k=l; elif [ -d "$f" ]; then k=d; elif [ -f "$f" ]; then k=f; elif [ -e "$f" ]; then k=o; else continue; fi
  printf '%s %s\\0' "$k" "$f"
done`;
}

/** Lock folders older than this are a writer's that was cut off, and are broken. */
const STALE_LOCK_MIN = 1;

/**
 * Takes the writer lock `lock` (a folder: mkdir is atomic on every file
 * system), waiting up to about 30 s; `OK` once held, else `E locked`. Then,
 * in the same trip, the snapshot of `path` (statScript's answer), which the
 * step run under the lock reads first.
 */
export function lockScript(root: string, lockDir: string, lock: string, path: string): string {
  return `${prelude(root, [lockDir, lock, path])}mkdir -p -- "$1" 2>/dev/null || fail io "cannot create the lock folder"
L="$1/$2"; i=0
until mkdir -- "$L" 2>/dev/null; do
  [ -n "$(find "$L" -maxdepth 0 -mmin +${STALE_LOCK_MIN} 2>/dev/null)" ] && rmdir -- "$L" 2>/dev/null && continue
  i=$((i + 1)); [ $i -gt 1500 ] && fail locked "$L"
  sleep 0.02 2>/dev/null || sleep 1
done
echo OK
set -- "$3"
inside "$1"
${SNAPSHOT}`;
}

export function unlockScript(lockDir: string, lock: string): string {
  return `${prelude("", [lockDir, lock])}rmdir -- "$1/$2" 2>/dev/null; echo OK`;
}

/**
 * Runs `command` in `cwd` there in a session of its own (setsid), and stops
 * that whole group (TERM, then KILL) when stdin ends: the transport closing
 * it, by a timeout, a cancel or a lost connection, leaves nothing running
 * there. Without setsid there only the command's shell is stopped. Exits
 * with the command's status.
 */
export function spawnScript(root: string, cwd: string, command: string): string {
  return `${prelude(root, [cwd, command])}inside "$1"
cd -- "$1" 2>/dev/null || { echo "splice: cannot enter $1" >&2; exit 127; }
exec 3<&0
if command -v setsid >/dev/null 2>&1; then setsid sh -c "$2" </dev/null & P=$!; G=-$P
else sh -c "$2" </dev/null & P=$!; G=$P; fi
{ while read -r _ <&3; do :; done; kill -TERM $G 2>/dev/null; sleep 1; kill -KILL $G 2>/dev/null; } &
W=$!
exec 3<&-
wait $P; S=$?
kill $W 2>/dev/null
exit $S`;
}

/**
 * The project the paths there belong to, found as git finds a repository:
 * from the folder that holds them all (`~` is the home folder there), the
 * nearest folder up holding `.splice/` (not the home folder or `/`) or
 * `.git`, else that folder. Answers `OK MARKER ROOT` (MARKER `.splice`,
 * `.git` or `none`), then each path, absolute with its folder's links
 * resolved, one a line.
 */
export function projectRootScript(paths: readonly string[]): string {
  return `${prelude("", paths)}home() { case "$1" in "~") printf '%s' "$HOME" ;; "~/"*) printf '%s' "$HOME/\${1#??}" ;; /*) printf '%s' "$1" ;; *) printf '%s' "$(pwd)/$1" ;; esac; }
base= out=
for p in "$@"; do
  p=$(home "$p")
  if [ -d "$p" ]; then d=$(real "$p"); n=; else d=$(real "$(dirname -- "$p")"); n=/$(basename -- "$p"); fi
  [ -n "$d" ] || fail no_tool 'realpath -m (or readlink -f)'
  x=$d$n; case "$x" in //*) x=\${x#/} ;; esac
  out="$out$x
"
  if [ -z "$base" ]; then base=$d; else
    while [ "$base" != / ]; do case "$d/" in "$base/"*) break ;; esac; base=$(dirname -- "$base"); done
  fi
done
d=$base m=none r=$base
while :; do
  if [ -d "$d/${STATE_FOLDER}" ] && [ "$d" != "$HOME" ] && [ "$d" != / ]; then m=${STATE_FOLDER} r=$d; break; fi
  if [ -e "$d/.git" ]; then m=.git r=$d; break; fi
  [ "$d" = / ] && break
  d=$(dirname -- "$d")
done
printf 'OK %s %s\\n%s' "$m" "$r" "$out"`;
}
