#!/usr/bin/env bash
# Merge the shards of examples/slurm-array.sh into the output the unsharded
# run would print (byte for byte), as JSON and as a table.
#SBATCH --job-name=graphalloc-merge
#SBATCH --time=00:10:00
#SBATCH --output=graphalloc-merge-%j.log
set -euo pipefail
graphalloc merge results/shard-*-of-*.jsonl -f json -o results/all.json
graphalloc merge results/shard-*-of-*.jsonl -f table -o results/all.txt
