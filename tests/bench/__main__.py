"""`python -m tests.bench [NAME ...] --out DIR`: run benchmarks and write DIR/<name>.json for each.

Each tests/bench/bench_<name>.py defines `run() -> dict`; its result is written with machine facts.
Benchmarks measure; they never assert. Run them on a quiet machine.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def machine() -> dict:
    """Facts about the machine the figures come from."""
    return {
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
    }


def main(argv: list[str] | None = None) -> int:
    """Run the named benchmarks (all by default) and write their results."""
    parser = argparse.ArgumentParser(prog="python -m tests.bench")
    parser.add_argument("names", nargs="*", help="benchmarks to run (default: all)")
    parser.add_argument("--out", default="data/out/bench")
    args = parser.parse_args(argv)
    available = sorted(p.stem.removeprefix("bench_") for p in HERE.glob("bench_*.py"))
    names = args.names or available
    for name in names:
        if name not in available:
            parser.error(f"unknown benchmark {name!r} (available: {', '.join(available)})")
    sys.path.insert(0, str(HERE.parents[1]))
    from pipeline.core.files import write_json

    out = Path(args.out)
    for name in names:
        module = importlib.import_module(f"tests.bench.bench_{name}")
        print(f"bench {name} ...", file=sys.stderr, flush=True)
        started = time.perf_counter()
        result = module.run()
        doc = {
            "benchmark": name,
            "machine": machine(),
            "wall_seconds": round(time.perf_counter() - started, 2),
            **result,
        }
        write_json(out / f"{name}.json", doc)
        print(json.dumps(doc, indent=1, default=str), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
