#!/usr/bin/env bash
# Helpers for the workbench tests: a tmux server on a socket of its own, a scratch directory as
# HOME and working directory, and polling (never fixed sleeps) for what the screen should show.
#   source lib.sh RETORT REPO
set -u
retort=$(realpath "$1")
repo=$(realpath "$2")
socket="retort-test-$$"
sockets=()
scratch=$(mktemp -d)
ln -s "$repo/samples" "$scratch/samples"
export HOME="$scratch" RETORT_HISTORY="$scratch/history" LANG=C.UTF-8 LC_ALL=C.UTF-8
unset NO_COLOR TMUX

tm() { tmux -L "$socket" "$@"; }
cleanup() {
  for sock in "${sockets[@]}"; do tmux -L "$sock" kill-server 2>/dev/null; done
  rm -rf "$scratch"
}
trap cleanup EXIT

# start COLS ROWS: a shell in the scratch directory, in which the test types `retort ...`.
start() {
  # A server of its own per screen size: a new session right after kill-server can reach the
  # server that is still shutting down.
  socket="retort-test-$$-$1x$2"
  sockets+=("$socket")
  # Its own journal too, so that a workbench killed with its server offers no restore here.
  export RETORT_STATE_DIR="$scratch/state-$1x$2"
  tm -f /dev/null new-session -d -x "$1" -y "$2" -s t -c "$scratch" \
    "env PS1='test-shell\$ ' bash --norc --noprofile"
  tm set-option -g status off
  wait_for 'test-shell\$'
}
keys() { tm send-keys -t t "$@"; }
# type TEXT: the text, then Enter.
type_line() {
  tm send-keys -t t -l "$1"
  tm send-keys -t t Enter
}
screen() { tm capture-pane -p -t t; }

fail() {
  echo "FAIL: $*" >&2
  echo "---- screen ----" >&2
  screen >&2
  exit 1
}

# wait_for PATTERN [SECONDS]: until the screen matches the extended regular expression.
wait_for() {
  local pattern=$1 limit=${2:-20}
  local deadline=$((SECONDS + limit))
  while ((SECONDS < deadline)); do
    screen | grep -Eq -- "$pattern" && return 0
    sleep 0.1
  done
  fail "timed out after ${limit}s waiting for /$pattern/"
}
# wait_gone PATTERN [SECONDS]
wait_gone() {
  local pattern=$1 limit=${2:-20}
  local deadline=$((SECONDS + limit))
  while ((SECONDS < deadline)); do
    screen | grep -Eq -- "$pattern" || return 0
    sleep 0.1
  done
  fail "timed out after ${limit}s waiting for /$pattern/ to go"
}
# wait_file FILE [SECONDS]
wait_file() {
  local file=$1 limit=${2:-20}
  local deadline=$((SECONDS + limit))
  while ((SECONDS < deadline)); do
    [ -s "$file" ] && return 0
    sleep 0.1
  done
  fail "timed out after ${limit}s waiting for $file"
}
expect_screen() { screen | grep -Eq -- "$1" || fail "the screen does not show /$1/"; }


# wait_text TEXT [SECONDS]: until the screen shows TEXT (a fixed string).
wait_text() {
  local text=$1 limit=${2:-20}
  local deadline=$((SECONDS + limit))
  while ((SECONDS < deadline)); do
    screen | grep -Fq -- "$text" && return 0
    sleep 0.1
  done
  fail "timed out after ${limit}s waiting for '$text'"
}
# run_cmd LINE [SECONDS]: types a command into the workbench and waits until it has finished.
run_cmd() {
  type_line "$1"
  local limit=${2:-30}
  local deadline=$((SECONDS + limit))
  while ((SECONDS < deadline)); do
    screen | grep -Fq -e "done: \`$1\`" -e "failed: \`$1\`" && return 0
    sleep 0.1
  done
  fail "timed out after ${limit}s waiting for \`$1\` to finish"
}
# start_retort COLS ROWS ARGS...: the workbench in a fresh tmux server; `exit=N` is printed when
# it ends.
start_retort() {
  local cols=$1 rows=$2
  shift 2
  start "$cols" "$rows"
  type_line "$retort $* ; echo exit=\$?"
  wait_text 'F1 graph'
  wait_for '(ready|done: `|failed: `)'
}
