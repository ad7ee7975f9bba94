#!/usr/bin/env bash
# Runs one CLI transcript case and compares what retort prints (stdout and stderr together, then
# "[exit N]" when the status is not 0) with the case's .out file.
#   run_case.sh RETORT CASE.rts
# The case runs in a scratch copy of its folder (so `export` writes nowhere in the source tree),
# with `samples` linked to the repository's samples/. The file name picks the front end:
# c_*.rts runs as `retort -c` (lines joined with ';'), stdin_*.rts is piped into
# `retort --plain`, anything else runs as `retort --script`.
# RETORT_UPDATE_TRANSCRIPTS=1 rewrites the .out file instead (review the diff before committing).
set -u
retort=$(realpath "$1")
case_file=$(realpath "$2")
cases_dir=$(dirname "$case_file")
repo=$(realpath "$(dirname "${BASH_SOURCE[0]}")/../..")
name=$(basename "$case_file" .rts)
expected="$cases_dir/$name.out"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp -a "$cases_dir/." "$scratch/"
ln -s "$repo/samples" "$scratch/samples"
cd "$scratch" || exit 2
# --plain journals every command: keep the journal in the scratch folder. Pictures rendered
# without -o go to ./retort-session/ there (a path given, so transcripts name it the same in
# every run).
export RETORT_STATE_DIR="$scratch/state" RETORT_SESSION_DIR=retort-session
unset RETORT_VIEWER

# --quiet: a command that runs past 10 s would print a progress line, at a moment that differs
# from run to run.
case $name in
  c_*) actual=$("$retort" --quiet -c "$(grep -v '^[[:space:]]*#' "$name.rts" | paste -sd';')" </dev/null 2>&1) ;;
  stdin_*) actual=$("$retort" --quiet --plain <"$name.rts" 2>&1) ;;
  *) actual=$("$retort" --quiet --script "$name.rts" </dev/null 2>&1) ;;
esac
status=$?
if [ "$status" -ne 0 ]; then actual+=$'\n'"[exit $status]"; fi

if [ "${RETORT_UPDATE_TRANSCRIPTS:-}" = 1 ]; then
  printf '%s\n' "$actual" >"$expected"
  exit 0
fi
if [ ! -f "$expected" ]; then
  echo "no $expected; create it with RETORT_UPDATE_TRANSCRIPTS=1" >&2
  exit 1
fi
diff -u --label "$name.out (expected)" --label "$name (actual)" "$expected" <(printf '%s\n' "$actual")
