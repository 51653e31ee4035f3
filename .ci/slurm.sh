#!/usr/bin/env bash
# CI: the Slurm recipe of docs/cluster.md on a real one-node Slurm.
#
# Installs slurm-wlm and munge from the distribution's packages when they are
# missing, starts a private munged, slurmctld and slurmd (as root, on
# loopback, every file under one temporary directory), then:
#   1. submits examples/slurm-array.sh as a 3-task array on a tiny study and
#      examples/slurm-merge.sh with --dependency=afterok, waits for both and
#      checks the merged JSON is, byte for byte, the unsharded run's; then
#      deletes a shard, resubmits that task alone and merges again;
#   2. does it again on a study of a few seconds per task, requeues one task
#      (scontrol requeue) once it has finished a trial and checks that the
#      task resumed its file and the merge is still the unsharded run.
# Stops the daemons it started by their pid files, whatever happens.
# Skips (exit 0, with the reason) only when the packages cannot be installed.
# GRAPHALLOC_SLURM_KEEP=1 keeps the temporary directory (logs, results).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
export PATH="$PATH:/usr/sbin:/sbin"
if ! command -v go >/dev/null 2>&1; then
  export PATH="$PATH:/usr/local/go/bin"
fi
t0=$SECONDS
say() { echo "slurm [$((SECONDS - t0))s]: $*"; }

# --- the packages -----------------------------------------------------------
have_all() {
  local c
  for c in munged slurmctld slurmd sbatch squeue sinfo scontrol scancel; do
    command -v "$c" >/dev/null 2>&1 || return 1
  done
}
if ! have_all; then
  if [[ $(id -u) -ne 0 ]]; then
    echo "slurm: SKIPPED: slurm-wlm and munge are not installed and this is not root (cannot apt-get install)"
    exit 0
  fi
  say "installing slurm-wlm and munge"
  aptlog=$(mktemp)
  if ! { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends slurm-wlm munge; } >"$aptlog" 2>&1; then
    tail -n 20 "$aptlog"
    echo "slurm: SKIPPED: apt-get could not install slurm-wlm and munge (its last lines above)"
    rm -f "$aptlog"
    exit 0
  fi
  rm -f "$aptlog"
  have_all || { echo "slurm: slurm-wlm and munge installed, but a command is still missing"; exit 1; }
fi
version=$(slurmctld -V)
say "$version, $(munged --version 2>&1 | head -n 1)"

# --- a private one-node cluster -------------------------------------------------
work=$(mktemp -d /tmp/graphalloc-slurm.XXXXXX)
mkdir -p "$work"/{bin,state,spool,munge}
chmod 711 "$work" "$work/munge" # munged wants its socket's directories searchable
jobs=()
ok=0
cleanup() {
  set +e
  if [[ ${#jobs[@]} -gt 0 && -n ${SLURM_CONF:-} ]]; then
    scancel "${jobs[@]}" 2>/dev/null
    local j
    for ((j = 0; j < 40; j++)); do
      [[ -z $(squeue -h -j "$(IFS=,; echo "${jobs[*]}")" -t RUNNING,COMPLETING 2>/dev/null) ]] && break
      sleep 0.25
    done
  fi
  if [[ $ok -ne 1 ]]; then
    local f
    for f in "$work"/slurmctld.log "$work"/slurmd.log "$work"/munged.log "$work"/run*/graphalloc*.log; do
      [[ -f $f ]] || continue
      echo "---- $f (last lines)"
      tail -n 25 "$f"
    done
  fi
  # The daemons this script started, by their pid files: slurmd, slurmctld,
  # munged (in that order), each waited for up to 10 s.
  local name pid i
  for name in slurmd slurmctld munged; do
    [[ -s $work/$name.pid ]] || continue
    pid=$(<"$work/$name.pid")
    kill "$pid" 2>/dev/null || continue
    for ((i = 0; i < 100; i++)); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -0 "$pid" 2>/dev/null && { echo "slurm: $name ($pid) ignores SIGTERM: SIGKILL"; kill -KILL "$pid"; }
  done
  if [[ -n ${GRAPHALLOC_SLURM_KEEP:-} ]]; then
    echo "slurm: kept $work"
  else
    rm -rf "$work"
  fi
}
trap cleanup EXIT

say "building graphalloc"
go build -o "$work/bin/graphalloc" ./cmd/graphalloc
export PATH="$work/bin:$PATH"

# Two free loopback ports (a Slurm of the machine's own may hold 6817/6818).
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
pick_port() {
  local p
  for _ in $(seq 100); do
    p=$((20000 + RANDOM % 20000))
    if port_free "$p" && [[ $p != "${1:-}" ]]; then
      echo "$p"
      return
    fi
  done
  echo "slurm: no free port found" >&2
  return 1
}
ctldport=$(pick_port)
slurmdport=$(pick_port "$ctldport")

host=$(hostname -s)
cpus=$(nproc)
mem=$(free -m | awk '/^Mem:/ {print $2}')

# munge: its own key, socket and files, so that a munged of the machine's
# own (the package may have started one) is neither used nor disturbed.
mungekey --create --keyfile="$work/munge/munge.key" 2>/dev/null ||
  { dd if=/dev/urandom bs=1 count=1024 of="$work/munge/munge.key" status=none; }
chmod 400 "$work/munge/munge.key"
munged --socket="$work/munge/munge.socket" --key-file="$work/munge/munge.key" \
  --pid-file="$work/munged.pid" --log-file="$work/munged.log" --seed-file="$work/munge/munge.seed" --force

export SLURM_CONF=$work/slurm.conf
cat >"$SLURM_CONF" <<EOF
ClusterName=graphalloc-ci
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctldport
SlurmdPort=$slurmdport
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/munge/munge.socket,cred_expire=10
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
SwitchType=switch/none
ReturnToService=2
SlurmdParameters=config_overrides
KillWait=5
SchedulerParameters=sched_interval=2,bf_interval=2
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=ci Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
say "node $host: $cpus CPUs, $mem MB; slurmctld on port $ctldport, slurmd on $slurmdport"
slurmctld -c -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"

# Wait (at most 60 s) for the node to be idle.
for ((i = 0; ; i++)); do
  state=$(sinfo -h -N -n "$host" -o '%T' 2>/dev/null || true)
  [[ $state == idle ]] && break
  if ((i >= 120)); then
    echo "slurm: node $host is \"$state\" after 60 s, not idle"
    exit 1
  fi
  sleep 0.5
done
say "node idle"

# job_states ID: the states of job ID (every task of an array), one a line.
job_states() { scontrol -o show job "$1" | grep -o 'JobState=[A-Z_]*' | cut -d= -f2; }
# wait_job ID SECONDS: wait until no task of job ID is pending or running;
# fail unless every one completed.
wait_job() {
  local id=$1 limit=$2 start=$SECONDS states
  while :; do
    states=$(job_states "$id")
    if ! grep -qvE '^(COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|BOOT_FAIL|DEADLINE|PREEMPTED)$' <<<"$states"; then
      break
    fi
    if ((SECONDS - start >= limit)); then
      echo "slurm: job $id still not finished after ${limit} s:"
      scontrol -o show job "$id"
      return 1
    fi
    sleep 0.5
  done
  if grep -qv '^COMPLETED$' <<<"$states"; then
    echo "slurm: job $id did not complete:"
    scontrol -o show job "$id"
    return 1
  fi
}
# The node's memory may be below the 8G per task that the example asks for.
memflag=()
((mem >= 8192)) || memflag=(--mem=$((mem / 4))M)

# submit DIR STUDY TASKS [SBATCH-FLAG...]: submit the array (--array=TASKS)
# and the merge job from DIR; sets array and merge to their job ids.
submit() {
  mkdir -p "$1"
  cd "$1"
  array=$(GRAPHALLOC_ARGS=$2 sbatch --parsable --array="$3" "${memflag[@]}" "${@:4}" "$repo/examples/slurm-array.sh")
  array=${array%%;*}
  jobs+=("$array")
  merge=$(sbatch --parsable --dependency=afterok:"$array" "$repo/examples/slurm-merge.sh")
  merge=${merge%%;*}
  jobs+=("$merge")
  cd "$repo"
}
# same DIR STUDY: the merged JSON in DIR equals the unsharded run of STUDY
# (run here with a worker per CPU: workers never change results).
same() {
  local study=${2/-f jsonl/-f json}
  read -r -a args <<<"${study/-w 1 /}"
  graphalloc "${args[@]}" -o "$1/want.json"
  if ! cmp "$1/results/all.json" "$1/want.json"; then
    diff "$1/results/all.json" "$1/want.json" | head -n 20
    echo "slurm: the merged result differs from the unsharded run of: graphalloc $study"
    return 1
  fi
}

# 1. A tiny study: array, dependent merge, same result.
study1="run -n 500 -t 5 --seed 4 -f jsonl"
submit "$work/run1" "$study1" 0-2
say "run 1: array $array, merge $merge ($study1)"
wait_job "$array" 180
say "run 1: array done"
wait_job "$merge" 120
same "$work/run1" "$study1"
say "run 1: merged result equals the unsharded run"
# A lost shard resubmitted alone, with K given (a 1-task array is K=1).
rm "$work/run1/results/shard-1-of-3.jsonl" "$work/run1/results/all.json"
GRAPHALLOC_SHARDS=3 submit "$work/run1" "$study1" 1
wait_job "$array" 120
wait_job "$merge" 120
same "$work/run1" "$study1"
say "run 1: shard 1 resubmitted alone (GRAPHALLOC_SHARDS=3, --array=1): same result"

# 2. About 2 s a trial, 2 trials a task, one worker (and one CPU) a task:
# requeue a task that has finished its first trial and runs its second.
study2="run -n 2^20 -m 400n -t 6 -w 1 --seed 5 -f jsonl"
submit "$work/run2" "$study2" 0-2 --cpus-per-task=1
say "run 2: array $array, merge $merge ($study2)"
victim=
for ((i = 0; i < 240; i++)); do
  for t in 0 1 2; do
    f=$work/run2/results/shard-$t-of-3.jsonl
    # The config line and one trial: the second trial is in flight.
    if [[ -f $f && $(grep -c '^{"trial"' "$f") -eq 1 ]] &&
      [[ $(job_states "${array}_$t") == RUNNING ]]; then
      victim=$t
      break 2
    fi
  done
  sleep 0.25
done
[[ -n $victim ]] || { echo "slurm: no task caught running after its first trial"; exit 1; }
scontrol requeue "${array}_$victim"
say "run 2: requeued task $victim after its first trial"
wait_job "$array" 180
say "run 2: array done"
wait_job "$merge" 120
say "run 2: merge done"
log=$work/run2/graphalloc-${array}_$victim.log
grep -q '^graphalloc: interrupted: 1 of 2 trials finished' "$log" ||
  { echo "slurm: task $victim was not interrupted after one trial:"; cat "$log"; exit 1; }
grep -q "^task $victim of 3 (restart 1): resuming" "$log" ||
  { echo "slurm: task $victim did not resume its file:"; cat "$log"; exit 1; }
same "$work/run2" "$study2"
say "run 2: task $victim was interrupted and resumed; merged result equals the unsharded run"
ok=1
say "passed ($version)"
