"""`rerank23_fit.py` over `xling32_sim.py --cands` rows with another pool size (issue 10, round 32).

    PYTHONPATH=src:bench python bench/xling32_fit.py POOL DIR main tr,all [--write DIR] [--all FILE] [--C 0.1]

POOL: how many of each question's fused candidates the learned order reads (20 ships); the rest as rerank23_fit.
"""

import sys

import rerank23_fit

if __name__ == "__main__":
    rerank23_fit.POOL = int(sys.argv.pop(1))
    rerank23_fit.main()
