#!/usr/bin/env bash
# A campaign as a Slurm job array (docs/campaigns.md, scripts/fuzz.sbatch) equals one run over the
# same cases: the test starts a one-node Slurm of its own (munged, slurmctld and slurmd from
# Debian's packages, in a scratch folder, on free ports), submits two array tasks of the campaign
# against a backend with a real, deterministic miscompilation (the fault worker adds 1 to what
# every mul computes), merges the shards with `findings merge` and compares the findings and
# their counts with one uninterrupted run. Exits 77 (skipped) with a message where Slurm is not
# installed or cannot start.
#   slurm_campaign.sh RETORT FAULT_WORKER SBATCH_SCRIPT
set -eu
retort=$(realpath "$1")
fault=$(realpath "$2")
job=$(realpath "$3")

skip() {
  echo "skipped: $*"
  exit 77
}
for tool in munged slurmctld slurmd sbatch sinfo python3; do
  command -v "$tool" >/dev/null || skip "no $tool (scripts/setup.sh installs munge, slurmctld, slurmd and slurm-client)"
done

scratch=$(mktemp -d)
cleanup() {
  # Only the daemons this test started, by the pids they wrote; they write their state as they
  # stop, so the folder goes once they are gone.
  local pids=()
  for f in "$scratch/slurmd.pid" "$scratch/slurmctld.pid" "$scratch/munge/pid"; do
    if [ -s "$f" ]; then pids+=("$(cat "$f")"); fi
  done
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for _ in $(seq 1 50); do
    alive=0
    for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && break
    sleep 0.1
  done
  rm -rf "$scratch" || true
}
trap cleanup EXIT
cd "$scratch"
export XDG_DATA_HOME="$scratch/data"
mkdir -p munge state spool log

dd if=/dev/urandom bs=1 count=1024 of=munge/munge.key 2>/dev/null
chmod 700 munge
chmod 400 munge/munge.key
munged --socket="$scratch/munge/socket" --key-file="$scratch/munge/munge.key" \
  --pid-file="$scratch/munge/pid" --log-file="$scratch/munge/log" \
  --seed-file="$scratch/munge/seed" --force 2>munge/stderr ||
  skip "munged did not start: $(cat munge/stderr munge/log 2>/dev/null | tail -3)"

port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
host=$(hostname -s)
user=$(id -un)
cat >slurm.conf <<CONF
ClusterName=retort-test
SlurmctldHost=$host(127.0.0.1)
SlurmUser=$user
SlurmdUser=$user
SlurmctldPort=$(port)
SlurmdPort=$(port)
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$scratch/munge/socket
StateSaveLocation=$scratch/state
SlurmdSpoolDir=$scratch/spool
SlurmctldPidFile=$scratch/slurmctld.pid
SlurmdPidFile=$scratch/slurmd.pid
SlurmctldLogFile=$scratch/log/slurmctld.log
SlurmdLogFile=$scratch/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
PlugStackConfig=/dev/null
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$scratch/slurm.conf"
slurm_log() { tail -5 log/slurmctld.log log/slurmd.log 2>/dev/null; }
slurmctld -i 2>log/slurmctld.stderr || skip "slurmctld did not start: $(cat log/slurmctld.stderr; slurm_log)"
slurmd 2>log/slurmd.stderr || skip "slurmd did not start: $(cat log/slurmd.stderr; slurm_log)"
for _ in $(seq 1 100); do
  state=$(sinfo -h -N -o %t 2>/dev/null || true)
  [ "$state" = idle ] && break
  sleep 0.2
done
[ "$state" = idle ] || skip "the Slurm node did not become idle (state '$state'): $(slurm_log)"

cases=120
attach="backend attach fault --cmd '$fault --fault perturb --perturb-op mul'"
# No review: its second opinions and reductions are bounded in time, so they could differ between
# one run and the shards (and they run every installed compiler).
gen="--backends ref,fault --ops add,mul,sub,neg,relu --dtypes f32 --nodes 5..8 --seed 7"
gen="$gen --no-opinion --no-reduce"
# "x31 fault reference mismatch at mul (f32)" per finding, sorted: what must be equal.
counts() { "$retort" findings --db "$1" | sed -n 's/^ *#[0-9]* *\(x[0-9]*\) *\(.*\)  (.*$/\1 \2/p' | sort; }

"$retort" -c "$attach; fuzz $gen --cases $cases --db one.db --quiet" >/dev/null
counts one.db >one.txt
[ -s one.txt ] || { echo "the uninterrupted run found nothing"; exit 1; }

# The job array of docs/campaigns.md, two tasks of one CPU each; --wait returns when both ended.
RETORT="$retort" RETORT_SETUP="$attach" sbatch --array=0-1 --cpus-per-task=1 --wait --quiet \
  --chdir="$scratch" --output="$scratch/log/task-%a.out" "$job" $gen --cases $cases ||
  { echo "the job array failed:"; cat log/task-*.out; slurm_log; exit 1; }
for k in 0 1; do
  [ -s "shard$k.db" ] || { echo "array task $k wrote no shard$k.db:"; cat "log/task-$k.out"; exit 1; }
done
"$retort" findings merge shard0.db shard1.db --db merged.db >/dev/null
counts merged.db >merged.txt
diff -u one.txt merged.txt
echo "slurm campaign: ok ($(wc -l <one.txt) findings, 2 array tasks)"
