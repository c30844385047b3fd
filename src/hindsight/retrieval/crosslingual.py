"""Language-aware dense ranking: compare each memory with the others *in its own script* before fusing.

multilingual-e5-small understands a Chinese question about an English memory, but it scores *every*
Chinese text higher against a Chinese query (unrelated pairs: 0.85 ZH->ZH against 0.77 ZH->EN), so the
right English memory for a Chinese question ranks below a hundred unrelated Chinese ones; how large the
gap is depends on the query (its length, how many Latin words it carries), so no fixed per-script constant
corrects it (the previous fixed background over-corrected Chinese paraphrase and English->Chinese queries
and under-corrected the rest).

`by_script` therefore calibrates per query: each hit's cosine minus the mean cosine of the best
`REFERENCE_DEPTH` hits *of its own script* in the candidate pool. The best memory of each script then sits
near 0 whatever the model's script bias, and a memory stands out by how far it beats its own script's
field. `other_script` lists the other-script hits in that order, a channel of its own in the fusion, so a
cross-script match gets the vote the keyword channel (which matches within a script) cannot give it.
Model-agnostic: no per-model constants. The search asks the store for a deeper dense pool (`POOL_FACTOR` x
dense_candidates for a Chinese query; `EN_POOL_FACTOR` x for an English one's cross-lingual lanes) so the other
script's best hits are in it at all.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from hindsight.text.script import HAN_EXTENDED

_HAN = re.compile(f"[{HAN_EXTENDED}]")
_LATIN_WORD = re.compile(r"[A-Za-z]+")

#: how many of a script's best hits form its reference level (the mean of their cosines)
REFERENCE_DEPTH = 10
#: the dense pool asked from the store for a Chinese query, x dense_candidates (the model ranks every Chinese
#: memory above every English one for it)
POOL_FACTOR = 4
#: the pool for an English query's cross-lingual and gloss lanes, x dense_candidates: the model favours English
#: memories for it too, less strongly (released rounds' English -> Chinese misses: the right Chinese memory 1st-5th
#: of its script at raw rank 52-99, outside a 50-deep pool). Its dense channel still ranks only the best
#: dense_candidates (x4 for both lanes and the channel cost English paraphrase 18 of 312). Chosen leave-one-round-out
#: over 1 / 2 / 4 (docs/benchmarks.md, paraphrase recall round 16).
#: The search reads the setting `crosslingual_pool_en` (default this value; x4 measured again in round 24, not kept).
EN_POOL_FACTOR = 2
#: the keyword channel's weight is multiplied by this when the dense pool mixes scripts: BM25 matches only
#: within a script, so at full weight its same-script noise outvotes a cross-script dense match
#: (0.8 / 1.2, chosen with crosslingual_weight 0.4 on a dev split of issue 10's released set and on
#: bench/data/xling_dev; English-only stores never see it)
MIXED_KEYWORD_FACTOR = 2 / 3


def bias_group(text: str) -> str:
    """The script group whose bias a memory's embedding carries: 'zh' once it has at least as many Chinese
    characters as Latin words ("Maven 下载依赖太慢的话，把 settings.xml 的 mirror 换成 Nexus" embeds like
    Chinese, though `script_of` calls it English), else 'en'."""
    han = len(_HAN.findall(text))
    return "zh" if han and han >= len(_LATIN_WORD.findall(text)) else "en"


def by_script(dense: list[tuple[str, float]], script_of_id: Callable[[str], str | None],
              depth: int = REFERENCE_DEPTH, favoured: str | None = None) -> list[tuple[str, float]]:
    """Dense hits re-scored as cosine minus the mean of their script's best `depth` cosines, best first.

    `favoured`: the query's script group. When the pool holds fewer than `depth` hits of it (a small store), its
    level is their mean padded to `depth` with the pool's level (the mean of its best `depth` cosines, every
    script): otherwise a lone memory of the query's script scores its cosine minus itself, 0, and ranks under
    unrelated memories of the other script (round 33: "which package manager should I use?" ranked the pnpm
    memory 3rd of 4 in the dense channel where raw cosine ranks it 1st). The other script's level is never padded:
    the model's bias against it is what the calibration corrects."""
    per: dict[str | None, list[float]] = {}
    for mid, score in dense:  # dense is best first, so each script's list is too
        per.setdefault(script_of_id(mid), []).append(score)
    level = {script: sum(scores[:depth]) / len(scores[:depth]) for script, scores in per.items()}
    own = per.get(favoured) if favoured is not None else None
    if own is not None and len(own) < depth:
        best = sorted((score for _, score in dense), reverse=True)[:depth]
        level[favoured] = (sum(own) + (depth - len(own)) * sum(best) / len(best)) / depth
    scored = [(mid, score - level[script_of_id(mid)]) for mid, score in dense]
    return sorted(scored, key=lambda item: -item[1])


def other_script(query: str, ranked: list[tuple[str, float]],
                 script_of_id: Callable[[str], str | None]) -> list[tuple[str, float]]:
    """The hits written in another script than the query, in the given order."""
    q = bias_group(query)
    return [(mid, s) for mid, s in ranked if script_of_id(mid) not in (None, q)]

