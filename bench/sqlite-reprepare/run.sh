#!/usr/bin/env bash
# Builds count.c against better-sqlite3's deps/sqlite3/sqlite3.c with the defines of its defines.gypi
# (about 20 s), then counts re-prepares of the item lookup's forms on a generated database (issue 22):
#
#   bash bench/sqlite-reprepare/run.sh /tmp/bench.db      (npx tsx bench/generate.ts /tmp/bench.db ...)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
database="${1:?usage: run.sh <generated database>}"
deps="$here/../../node_modules/better-sqlite3/deps"
out="$here/../.build/sqlite-reprepare"
mkdir -p "$(dirname "$out")"
mapfile -t defines < <(grep -o "'SQLITE_[A-Z0-9_=-]*'" "$deps/defines.gypi" | tr -d "'" | sed 's/^/-D/')
gcc -O2 "${defines[@]}" -I"$deps/sqlite3" "$here/count.c" "$deps/sqlite3/sqlite3.c" -lpthread -lm -ldl -o "$out"
"$out" "$database" "select uuid from assemblies where is_public = 1 and deleted_at is null limit 1000" \
  'select a.id, u.username from assemblies a join users u on u.id = a.creator_id where a.uuid = ?' \
  'select a.id, u.username from assemblies a join users u on u.id = a.creator_id where a.uuid = +?' \
  'select a.id, (select username from users u where u.id = a.creator_id) from assemblies a where a.uuid = ?' \
  'select a.id from assemblies a where a.uuid = ?'
