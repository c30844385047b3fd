"""The `rendered` channel: a dense search with the question's dictionary rendering in the other script (issue 10,
round 24).

multilingual-e5-small ranks a memory in the question's own script first, so an English answer to a Chinese question
(or a Chinese answer to an English one) can sit far down the cross-lingual lane - or outside the dense pool - while
the question's words, rendered in the answer's script, are close to it: 上环店在外卖平台上能点手冲吗 glossed
"delivery home meal platform provide takeout terrace" puts the Foodpanda note first among the English memories, where
the question's own vector puts it 35th (docs/benchmarks.md, "Retrieval, round 24"). The rendering is the one the
dictionary channels already read: a Chinese question's CC-CEDICT English senses (`glossmatch.translated_terms`), an
English question's Chinese headwords (`bilingual.chinese_words`). It is embedded as a query and searched densely; the
memories in the other script than the question are the channel, best first. One extra query embedding per
mixed-script search; nothing when the question has no dictionary words.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np

from hindsight.retrieval.bilingual import chinese_words
from hindsight.retrieval.crosslingual import bias_group
from hindsight.retrieval.glossmatch import english_side, translated_terms


def rendering(query: str) -> str:
    """`query`'s words in the other script by the dictionary: English senses joined by spaces for a Chinese question,
    Chinese headwords for an English one; '' when the dictionary knows none of its words."""
    if bias_group(query) == "zh":
        return " ".join(translated_terms(query))
    return "".join(chinese_words(english_side(query)))


def rendered_ranked(query: str, embed: Callable[[str], np.ndarray],
                    search: Callable[[np.ndarray], Sequence[tuple[str, float]]],
                    content_of: Callable[[list[str]], Mapping[str, str]]) -> list[tuple[str, float]]:
    """The other-script memories nearest `query`'s rendering (`embed`: text -> query vector; `search`: vector ->
    (id, cosine) best first; `content_of`: ids -> texts), best first; [] without a rendering."""
    text = rendering(query)
    if not text:
        return []
    hits = list(search(embed(text)))
    texts = content_of([mid for mid, _ in hits]) if hits else {}
    own = bias_group(query)
    return [(mid, score) for mid, score in hits if mid in texts and bias_group(texts[mid]) != own]
