#!/bin/bash
# Writes, per finding, what docs/bugs.md's measurement judged from (see README.md).
# usage: dump.sh DB OUTDIR N...
DB=$1; OUT=$2; shift 2
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
RETORT=${RETORT:-retort}
export RETORT_SCRIPTS_DIR=${RETORT_SCRIPTS_DIR:-$REPO/scripts}
PY=${PY:-$(ls -d ${XDG_CACHE_HOME:-$HOME/.cache}/retort/envs/onnx-ref@*/bin/python | head -1)}
cd "$REPO"
mkdir -p $OUT
for N in "$@"; do
  "$RETORT" findings show $N --db $DB > $OUT/f$N.show 2>&1
  rm -rf $OUT/f$N
  timeout 120 "$RETORT" findings report $N $OUT/f$N --db $DB > $OUT/f$N.report 2>&1
  if [ -f $OUT/f$N/repro.py ]; then
    timeout 120 $PY "$HERE"/oref.py $OUT/f$N --print > $OUT/f$N.oref 2>&1
    for L in disabled all; do PRINT=1 timeout 120 $PY "$HERE"/ort.py $OUT/f$N $L; done > $OUT/f$N.ort 2>&1
  fi
done
