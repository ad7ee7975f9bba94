#!/usr/bin/env bash
# Issue 43: the summary of `fuzz --jobs` counts the database's findings by kind, those of a
# merged shard among them, whose names an attacker chose: they print escaped (no byte a terminal
# acts on, no forged line).
#   escape_jobs.sh RETORT FAULT_WORKER
set -eu
retort=$(realpath "$1")
fault=$(realpath "$2")
source "$(dirname "${BASH_SOURCE[0]}")/campaign_scratch.sh"
cd "$scratch"
export XDG_DATA_HOME="$scratch/data"

attach="backend attach fault --cmd '$fault --fault perturb --perturb-op mul'"
quiet="--quiet --no-opinion --no-reduce"
"$retort" -c "$attach; fuzz --backends ref,fault --ops add,mul --dtypes f32 --nodes 3..4 --seed 7 --cases 4 --db shard.db $quiet" >/dev/null
# The shard's findings as an attacker sends them: hostile backend names, seen after the campaign
# below started.
python3 - shard.db <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
hostile = "evil\x1b]0;pwned\x07\x1b[2J\r\nFORGED line\u009b"
db.execute("update findings set backend_a = ?, last_seen = '2999-01-01T00:00:00Z'", (hostile,))
db.commit()
PY
"$retort" -c "fuzz --backends ref --ops add --nodes 2 --cases 1 --db mine.db $quiet; findings merge shard.db --db mine.db" >/dev/null
summary=$("$retort" -c "fuzz --resume --cases 4 --jobs 2 --no-opinion --no-reduce --db mine.db" 2>&1)
printf '%s\n' "$summary" | python3 -c '
import sys
text = sys.stdin.buffer.read()
bad = [b for b in text if (b < 0x20 and b not in (0x09, 0x0A)) or b == 0x7F]
assert not bad, "control bytes %r in:\n%s" % (sorted(set(bad)), text)
assert b"\xc2\x9b" not in text and b"\nFORGED" not in text, text
assert b"evil\\x1b]0;pwned\\x07\\x1b[2J\\x0d\\x0aFORGED line\\u009b" in text, text
'
