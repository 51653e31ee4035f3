#!/usr/bin/env python3
"""Writes flags.cases: every flag of every command with values it must refuse
(exit 2, one line, before any work). Rerun after editing:
    python3 testdata/hostile/gen_flags.py
"""
import os, re

LONG = {"-n": "--bins", "-m": "--balls", "-d": "--choices", "-t": "--trials", "-w": "--workers",
        "-s": "--seed", "-f": "--format"}
BASE = {
    "run": "run -n 64 -t 2",
    "compare": "compare -p greedy -n 64 -t 2",
    "bounds": "bounds -n 64",
    "fluid": "fluid",
    "info": "info -g cycle -n 64",
    "gen": "gen -g cycle -n 64 -o {tmp}/g.txt",
    "study": "study two-choices --tiny",
    "plot": "plot {in}/run.json -o {tmp}/p.png",
    "merge": "merge {in}/run-s0.json {in}/run-s1.json",
}
NUM = ["NaN", "Inf", "-Inf", "-1", "1e400", "2^64", "18446744073709551616", "", "abc"]
COUNT = NUM + ["0", "1.5", "2^", "1e", "^2"]
INT = ["-1", "", "abc", "NaN", "9223372036854775808"]
UINT = ["-1", "18446744073709551616", "", "abc", "NaN", "1.5"]
# (commands, flag, extra args that make the flag matter, bad values)
FLAGS = [
    ("run compare bounds info gen", "-n", "", COUNT),
    ("run compare bounds fluid", "-m", "", NUM + ["NaNn", "Infn", "-1n", "1e400n", "nn", "-n"]),
    ("run compare bounds fluid", "-d", "", NUM + ["0", "1.5"]),
    ("run compare", "-t", "", INT + ["0"]),
    ("study", "-t", "", INT),
    ("run compare study", "-w", "", INT),
    ("run compare bounds info gen study", "-s", "", UINT),
    ("run", "--every", "", [v for v in NUM if v] + ["-n", "0.5.5n"]),
    ("run compare bounds", "--batch", "", NUM + ["0", "0n", "-n"]),
    ("run", "--cap", "-p firstdiff", ["0", "-1", "NaN", "2^64", "abc"]),
    ("run compare", "--max-memory", "", ["NaN", "Inf", "-Inf", "-1", "-1G", "abc", "1e400", "1Q", "G", "NaNG", "InfG"]),
    ("run bounds fluid", "--beta", "-p one-plus-beta", ["NaN", "Inf", "-0.1", "1.1", "", "abc"]),
    ("run", "--sigma", "-p noisy", ["NaN", "Inf", "-1", "", "abc"]),
    ("run", "--delta", "-p quantile", ["NaN", "0", "1", "-0.5", "1.5", ""]),
    ("run", "--g", "-p g-bounded", ["-1", "", "abc", "2^64"]),
    ("run", "--memory", "-p memory", ["-1", "", "abc"]),
    ("run", "--k", "-p kd-choice -d 2", ["0", "-1", "3", "", "abc"]),
    ("run", "--threshold", "-p threshold", ["-1", "", "abc"]),
    ("run bounds", "--expansion", "-p graph -g cycle", ["NaN", "Inf", "0", "-1", "1.5", ""]),
    ("run compare", "--ties", "", ["", "middle", "random,left"]),
    ("run", "--sample", "-p graph -g cycle", ["", "bogus", "walk", "walk:len=-1", "walk:len=NaN", "walk:len=2^64", "walk:len=", "walk:len=abc", "edge:x=1"]),
    ("run", "--weights", "-p weighted", ["", "lognormal", "pareto:shape=NaN", "pareto:shape=-1", "pareto:shape=0", "uniform:a=2,b=1", "uniform:a=NaN,b=1", "uniform:a=-Inf,b=0", "pareto:shape=", "const:x=1"]),
    ("run", "--engine", "", ["", "bogus"]),
    ("run compare merge", "-f", "", ["", "xml", "csv,json"]),
    ("bounds fluid info", "-f", "", ["", "xml", "jsonl"]),
    ("study", "-f", "", ["", "xml", "jsonl"]),
    ("run", "--shard", "", ["1", "1/0", "0/0", "-1/2", "2/2", "3/2", "a/b", "1/2/3", "NaN/2", "2^64/2", "1/-2", "1/2^64", "/", "1/", "/2", "0.5/2"]),
    ("compare", "--shard", "", ["1/0", "2/2", "-1/2", "a/b"]),
    ("plot", "--size", "", ["0x0", "-1x5", "NaNxNaN", "1e400x1", "12cmx", "12furlongx8cm", "100000inx100000in", "x", "5"]),
    ("plot", "--font-size", "", ["NaN", "-1", "0", "Inf", "1e400"]),
    ("run", "--font-size", "--plot {tmp}/p.png", ["NaN", "-1", "0", "Inf", "1e400"]),
    ("plot", "--dpi", "", ["0", "-1", "2147483648", "100000000", "abc"]),
    ("plot", "--legend", "", ["top", "NONE,inside"]),
    ("plot", "--linear", "", ["z", "x,z"]),
    ("plot", "--log", "", ["z"]),
    ("plot", "--format", "", ["gif", "bmp"]),
    ("gen", "--format", "", ["gif", "xml"]),
    ("gen", "--gzip", "", ["maybe"]),
    ("merge", "--partial", "", ["maybe"]),
    ("info", "--max-iter", "", ["-1", "abc", ""]),
    ("info fluid", "--tol", "", ["NaN", "-1", "0", "Inf", "2", "1e-400"]),
    ("run compare", "--plot", "", ["{tmp}/p.gif", "{tmp}/p"]),
]

def slug(v):
    if v == "":
        return "empty"
    if len(v) > 40:
        return f"long{len(v)}"
    s = v.replace("{tmp}/", "").replace("^", "pow").replace("-", "neg").replace("/", "of")
    return re.sub(r"[^A-Za-z0-9.]+", "_", s)

def quote(v):
    if v == "":
        return "''"
    return "'" + v + "'" if re.search(r"[\s\"]", v) else v

lines, seen = [], set()
for cmds, flag, extra, values in FLAGS:
    for cmd in cmds.split():
        for v in values:
            long = LONG.get(flag, flag)
            name = f"flag-{cmd}-{long[2:]}-{slug(v)}"
            if name in seen:
                continue
            seen.add(name)
            args = " ".join(x for x in [BASE[cmd], extra] if x)
            # --flag=VALUE, so that a value starting with - is never a flag.
            lines.append(f"{name} 2 -- {args} {long}={quote(v)}")

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "flags.cases")
with open(out, "w") as f:
    f.write("# Bad values of every flag: each refused with exit 2 and one line, before any work.\n")
    f.write("# Generated by gen_flags.py (edit it and rerun); hand-written cases go in the other files.\n")
    f.write("\n".join(lines) + "\n")
print(len(lines), "cases in", out)
