#!/usr/bin/env bash
# Fills fuzz/corpus/TARGET/ with seeds from the repository and ../shared/interop (not
# committed: fuzz/corpus is git-ignored). Run from anywhere: `fuzz/seed.sh [INTEROP_DIR]`.
# Importer seeds are in the targets' multi-file form (see fuzz/src/checks.rs split_files):
# sections separated by NUL bytes, each "relative/path\ncontent", the first one imported.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
interop="${1:-$repo/../shared/interop}"
[ -d "$interop" ] || interop="$repo/runtime/tests/interop"
corpus="$here/corpus"
mkdir -p "$corpus"/{pack_load,expr_parse,btcpp_import,behavior3_import,debug_lines,mod_resolve}

# pack_load: the samples and the bad-pack corpus.
cp "$repo"/samples/*.json "$corpus/pack_load/"
for f in "$repo"/runtime/tests/corpus/*.json; do cp "$f" "$corpus/pack_load/corpus_$(basename "$f")"; done

# expr_parse: every expression-like string of the samples and the corpus, and a few that use
# each function and scope.
n=0
{
  jq -r '.. | objects | to_entries[]
         | select(.key | test("^(precondition|expr|constraint|condition|when|value|cond|until|guard)$"))
         | .value | strings' "$repo"/samples/*.json 2>/dev/null
  cat <<'X'
distance(self, entity("guard_2")) < 3.5 && !flags.raining
pos(target) == vec2(1, 2) || area.open
clamp(abs(x - 2) * 3 % 7, 0, 1e3) >= floor(1.5) + ceil(0.2) - sqrt(4)
min(counters.bread, 3) / max(n, 1) != -(d)
has_tag("innkeeper") && subject_has("guest") && holders("tend_bar") > 0
health(subject) > 0.5 && alive(self) && hour() < 23.5 && day() >= 2
name == "bob\n\"quoted\"" && (a || (b && !c))
X
} | sort -u | while IFS= read -r line; do
  n=$((n + 1)); printf '%s' "$line" > "$corpus/expr_parse/seed_$n"
done

# Importers: one seed per importable file, with every other file of its folder tree.
multi() { # OUT ROOT MAIN: MAIN first, then the other files under ROOT (paths from ROOT)
  local out="$1" root="$2" main="$3"
  {
    printf '%s\n' "$main"; cat "$root/$main"
    (cd "$root" && find . -type f ! -name LICENSE ! -name README.md | sed 's|^\./||' | sort) |
      while IFS= read -r f; do
        [ "$f" = "$main" ] && continue
        printf '\0%s\n' "$f"; cat "$root/$f"
      done
  } > "$out"
}
for dir in "$interop/btcpp/include_tests" "$interop/btcpp/test_files"; do
  (cd "$dir" && find . -name '*.xml' | sed 's|^\./||' | sort) | while IFS= read -r f; do
    multi "$corpus/btcpp_import/$(basename "$dir")_${f//\//_}" "$dir" "$f"
  done
done
b3="$interop/behavior3"
(cd "$b3" && find . -type f \( -name '*.json' -o -name '*.b3-workspace' \) | sed 's|^\./||' | sort) |
  while IFS= read -r f; do multi "$corpus/behavior3_import/${f//\//_}" "$b3" "$f"; done

# debug_lines: a seed byte, then a session of every command.
printf '\001%s\n' \
  '{"cmd":"help"}' '{"cmd":"run","ticks":20}' '{"cmd":"break","on":{"kind":"tick","tick":30}}' \
  '{"cmd":"breakpoints"}' '{"cmd":"continue","ticks":50}' '{"cmd":"why"}' \
  '{"cmd":"step","kind":"into"}' '{"cmd":"step","kind":"over","npc":"guard_1"}' \
  '{"cmd":"step","kind":"out"}' '{"cmd":"inspect","npc":"guard_1"}' '{"cmd":"inspect"}' \
  '{"cmd":"back","kind":"tick"}' '{"cmd":"back","kind":"node"}' '{"cmd":"back","tick":5}' \
  '{"cmd":"disable","id":1}' '{"cmd":"enable","id":1}' '{"cmd":"delete","id":1}' \
  '{"cmd":"hash"}' '{"cmd":"tick"}' '{"cmd":"trace","last":5}' '{"cmd":"snapshots"}' \
  '# a comment' '' 'not json' '[1]' '{"cmd":3}' '{"cmd":"run","ticks":-1,"x":1}' \
  > "$corpus/debug_lines/session"
for f in "$repo"/runtime/tests/golden/*_debug.script; do
  { printf '\003'; cat "$f"; } > "$corpus/debug_lines/golden_$(basename "$f")"
done

# mod_resolve: each sample mod over its base (base first, the mod last, its `extends` made
# "daily_life.json"), two mods over the base from the command line, and a folder pack of
# samples/plaza.json (pack.json plus SECTION/ID.json, as `townsfolk unpack` lays it out).
mods="$repo/samples/mods"
if [ -d "$mods" ]; then
  for m in "$mods"/*.json; do
    { printf 'daily_life.json\n'; cat "$repo/samples/daily_life.json"
      printf '\0%s\n' "$(basename "$m")"; jq '.extends = ["daily_life.json"]' "$m"
    } > "$corpus/mod_resolve/$(basename "$m")"
  done
  set -- "$mods"/*.json
  { printf 'cmd_base.json\n'; cat "$repo/samples/daily_life.json"
    printf '\0cmd_a.json\n'; jq 'del(.extends)' "$1"
    printf '\0b.json\n'; jq 'del(.extends)' "$2"
  } > "$corpus/mod_resolve/two_mods"
fi
plaza="$repo/samples/plaza.json"
{
  for sec in trees areas events scenarios casts triggers tests; do
    jq -c --arg s "$sec" '(.[$s] // [])[]' "$plaza" | while IFS= read -r item; do
      id="$(jq -r .id <<<"$item")"
      printf 'plaza/%s/%s.json\n%s\0' "$sec" "$id" "$item"
    done
  done
  printf 'plaza/pack.json\n'
  jq '. as $p | {format, version, name, world} + (reduce ("trees","areas","events","scenarios","casts","triggers","tests") as $s ({}; if $p[$s] then .[$s] = [$p[$s][].id] else . end))' "$plaza"
} > "$corpus/mod_resolve/folder_plaza"
{ printf 'plaza.json\n'; cat "$plaza"; } > "$corpus/mod_resolve/plain_plaza"

# Every saved crasher, as a seed of its target.
for t in "$repo"/runtime/tests/fuzz_regressions/*/; do
  [ -d "$t" ] && cp "$t"* "$corpus/$(basename "$t")/" 2>/dev/null || true
done
for t in "$corpus"/*/; do echo "$(basename "$t"): $(ls "$t" | wc -l) seeds"; done
