#!/usr/bin/env bash
# A sharded graphalloc run as a Slurm job array: task I of K runs shard I/K
# of the trials and streams them to its own file; a dependent job merges.
# Submit from the directory that is to hold results/ and the logs:
#
#   jobid=$(sbatch --parsable examples/slurm-array.sh)   # K = 16 shards
#   sbatch --dependency=afterok:$jobid examples/slurm-merge.sh
#
# Slurm opens --output before the script runs, in a directory that must
# exist already: the logs go to the submit directory itself (a logs/
# directory would have to be made by hand before sbatch). --open-mode=append
# keeps the log of a task's earlier attempts when it is requeued.
#
#SBATCH --job-name=graphalloc
#SBATCH --array=0-15
#SBATCH --cpus-per-task=2
#SBATCH --mem=8G
#SBATCH --time=04:00:00
#SBATCH --output=graphalloc-%A_%a.log
#SBATCH --open-mode=append
#SBATCH --requeue
set -euo pipefail

# K is the array's size. To rerun some tasks, requeue them (scontrol requeue
# JOBID_3) or resubmit them with K given: GRAPHALLOC_SHARDS=16 sbatch
# --array=3,7 examples/slurm-array.sh (a 2-task array would otherwise be K=2).
K=${GRAPHALLOC_SHARDS:-${SLURM_ARRAY_TASK_COUNT:-16}}
I=${SLURM_ARRAY_TASK_ID:?run this under sbatch}
OUT=results/shard-${I}-of-${K}.jsonl
mkdir -p results

# The study; GRAPHALLOC_ARGS overrides it (the project's tests run this
# script on a tiny study that way).
read -r -a ARGS <<< "${GRAPHALLOC_ARGS:-run -p graph -g regular:degree=16 -n 2^22 -m 1000n -t 256 --seed 20261130 -w ${SLURM_CPUS_PER_TASK:-2} -f jsonl}"

# A requeued or restarted task continues its own file: --resume skips the
# trials it already holds, so a preempted task loses at most the trials in
# flight. graphalloc exits 1 on SIGTERM (Slurm's preemption signal) after
# flushing every finished trial.
if [ -s "$OUT" ]; then
  echo "task $I of $K (restart ${SLURM_RESTART_COUNT:-0}): resuming $OUT" >&2
  graphalloc "${ARGS[@]}" --shard "$I/$K" -o "$OUT" --resume "$OUT"
else
  graphalloc "${ARGS[@]}" --shard "$I/$K" -o "$OUT"
fi
