"""Imported first by benchmarks that report CPU time: one BLAS / OpenMP thread unless HINDSIGHT_BENCH_THREADS says
otherwise, set before numpy loads its BLAS (CPU time of one thread is the work done, whatever the machine's load)."""

import os

THREADS = os.environ.get("HINDSIGHT_BENCH_THREADS", "1")
os.environ["OMP_NUM_THREADS"] = os.environ["OPENBLAS_NUM_THREADS"] = os.environ["MKL_NUM_THREADS"] = THREADS
