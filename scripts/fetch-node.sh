#!/usr/bin/env bash
# Puts an official Node.js build of one release line in .tools/node/<version>/ and prints its bin
# directory, so that
#
#   export PATH="$(bash scripts/fetch-node.sh 24):$PATH"
#
# runs everything after it (npm ci, npm start, npm test) on that line. The build comes from the npm
# registry's node-linux-<arch> package (the nodejs.org tarball, headers included), fetched with
# `npm pack`, so it works where only the npm registry is reachable; Debian 12's apt has only Node 20.
#
#   eval "$(bash scripts/fetch-node.sh 24 --env)"
#
# also points npm's native builds (better-sqlite3 through node-gyp) at that build's own headers, so
# they need no download and cannot pick up another Node's headers from an npmrc `nodedir`.
#
# The versions are pinned, one per line that CI tests (see "Node.js versions" in README.md); raise
# them here when a line ships a new release.
set -euo pipefail
cd "$(dirname "$0")/.."
line="${1:?usage: fetch-node.sh <major: 22, 24 or 26> [--env]}"
mode="${2:-}"
case "$line" in
  22) version="22.23.3" ;;
  24) version="24.21.0" ;;
  26) version="26.10.0" ;;
  *) echo "fetch-node.sh: no pinned version for Node $line (22, 24, 26)" >&2; exit 2 ;;
esac
case "$(uname -m)" in
  x86_64) arch="x64" ;;
  aarch64) arch="arm64" ;;
  *) echo "fetch-node.sh: no Node.js package for $(uname -m)" >&2; exit 2 ;;
esac
target=".tools/node/${version}"
if [ ! -x "$target/bin/node" ]; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  echo "fetching node-linux-${arch}@${version} from the npm registry" >&2
  ( cd "$work" && npm pack --silent "node-linux-${arch}@${version}" >/dev/null && tar xzf ./*.tgz )
  mkdir -p "$(dirname "$target")"
  rm -rf "$target"
  mv "$work/package" "$target"
fi
home="$(pwd)/${target}"
if [ "$mode" = "--env" ]; then
  printf 'export PATH=%q:"$PATH" npm_config_nodedir=%q\n' "$home/bin" "$home"
else
  echo "$home/bin"
fi
