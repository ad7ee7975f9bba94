# Sourced by the scripts that leave retort running in the background (tests/cli/fuzz_*.sh,
# restore_after_kill.sh, tests/bench/soak_memory.sh): a scratch folder removed at exit, after the
# process left running ($pid) is killed; and
# db_value DB SQL, the first column of the query's first row (0 while DB cannot be read yet).
scratch=$(mktemp -d)
pid=
cleanup() {
  if [ -n "$pid" ]; then kill -9 "$pid" 2>/dev/null || true; fi
  rm -rf "$scratch"
}
trap cleanup EXIT
db_value() {
  python3 -c 'import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])' "$1" "$2" 2>/dev/null ||
    echo 0
}
