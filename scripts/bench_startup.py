#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Start-up time of animexport against gifsicle (issue 20): `--version` and `--help`.

Each command runs RUNS times after WARMUP runs; for each we print the median wall time and the
median CPU time (user + system, from wait4's rusage, which a busy machine disturbs less than
wall time), and the ratio of the medians to `gifsicle --version`.
`animexport` is the front that answers these two itself; the rows for `animexport-core` (the
whole tool, which the front execs for everything else) show what a run through the front costs.
Usage: bench_startup.py [ANIMEXPORT] (default .build/release/animexport)
"""
import os
import statistics
import subprocess
import sys
import time

RUNS = 60
WARMUP = 5


def measure(argv):
    walls, cpus = [], []
    for i in range(WARMUP + RUNS):
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit(f"{' '.join(argv)} exited with {status}")
        if i >= WARMUP:
            walls.append(wall)
            cpus.append(usage.ru_utime + usage.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def main():
    tool = sys.argv[1] if len(sys.argv) > 1 else ".build/release/animexport"
    rows = [
        ("gifsicle --version", ["gifsicle", "--version"]),
        ("animexport --version", [tool, "--version"]),
        ("animexport --help", [tool, "--help"]),
    ]
    # The core the front execs for every other command, started directly (what --version cost
    # before the front), and one run through the front into the core.
    core = os.path.join(os.path.dirname(tool), "animexport-core")
    if os.access(core, os.X_OK):
        rows += [
            ("animexport-core --version", [core, "--version"]),
            ("front → core list --help", [tool, "list", "--help"]),
        ]
    results = [(name, *measure(argv)) for name, argv in rows]
    base_wall, base_cpu = results[0][1], results[0][2]
    print(f"{'command':<26} {'wall ms':>8} {'cpu ms':>8} {'wall ×':>7} {'cpu ×':>7}   (median of {RUNS})")
    for name, wall, cpu in results:
        print(f"{name:<26} {wall * 1e3:8.2f} {cpu * 1e3:8.2f} {wall / base_wall:7.2f} {cpu / max(base_cpu, 1e-6):7.2f}")


if __name__ == "__main__":
    main()
