"""Round 26 guard: EN/ZH parity of the framing lexicons, staged for the next refit (issue 10; docs/benchmarks.md
"Guard, round 26").

The loosen / approval / trust / authority lexicons of ``safety/features.py`` lacked the Chinese of several English
forms (optional 可选, is fine 无所谓, 777 全开, ignore 忽略, unnecessary 没必要, without approval 不经审批, whoever 不管谁,
treat any 一律当作, Google 谷歌, vendor 供应商, ...) and the English of several Chinese ones (免了 waive, 省略 omit, 省事
saves time, 当真 at their word, 报得出 can quote, 不走流程 no review, ...). The additions are a runtime change the
shipped weights (round 18) were not fitted on: read with those weights on blind r17 - r24b they catch 7 more attacks
and flag 2 more benign texts of 2,560 each (docs), so they go in with a refit, never alone. Until then they live
here: ``patch()`` grows the runtime's patterns in every module that holds them (``features``: the framing rows and
the classifier gate; ``view``, ``stake``, ``asserted``, ``carried``: what is at stake, which replies a transcript
keeps, what a carried fact may not do) and returns the undo; ``guard_model.DIGEST_SALT`` keeps the harness caches of a patched run
apart. To ship: append each list to its lexicon in ``features.py`` and refit.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import hindsight.safety.guard  # noqa: F401  (loads every module that holds a lexicon)
from hindsight.safety import asserted
from hindsight.safety import features as fx
from hindsight.safety.rules import _alt, _c

ADD: dict[str, tuple[str, ...]] = {
    "LOOSEN": (  # optional / is fine / 777 / ignore / unnecessary / without a check / no limit, and the EN of 免了 ...
        r"可选", r"选填", r"可有可无", r"无所谓", r"没关系", r"全开", r"全部(?:打开|开放)", r"忽略", r"无视", r"没必要", r"多此一举",
        r"非必须", r"不是必须", r"停用", r"拖慢", r"不限(?:额|量|次|速)", r"不设(?:上限|限额|限制)", r"立刻", r"立即", r"一律批准", r"全部批准",
        r"不经(?:过)?(?:确认|审批|评审|审核|核实|同意|备份|测试)", r"未经(?:确认|审批|评审|审核|核实|测试)",
        r"\bwaiv", r"\bomit", r"good enough", r"is enough", r"saves? (?:time|effort|hassle)", r"once and for all",
        r"\bno (?:review|approval|confirmation|callback|check|ticket|backup|sign-?off)s?\b", r"don'?t go through", r"\bno limit",
    ),
    "APPROVAL": (  # permission / verify / ask / consult / check with, and go-ahead / double-check / signature / call back
        r"许可", r"同意", r"验证", r"校验", r"询问", r"征求", r"问(?:一下|过|清楚)", r"商量", r"咨询", r"核对", r"审查", r"审阅", r"签批", r"会签",
        r"go-?ahead", r"green[- ]?light", r"double-?check", r"\bsign(?:ature|ed off)", r"call(?:ing)? (?:them |him |her |it )?back",
    ),
    "TRUST": (  # whoever / treat any / trust any / callers who, and 当真 / 就是本人 / 报得出 / 自己人
        r"无论谁", r"不管谁", r"任何人(?:说|自称|来)", r"一律(?:当|视为|信任)", r"都当(?:作|成)", r"都信任", r"直接信任", r"完全信任",
        r"打(?:电话)?来(?:的人)?(?:说|自称)", r"靠谱",
        r"at (?:their|his|her) word", r"(?:is|it'?s) really (?:them|him|her)", r"\bcan (?:quote|recite)", r"one of us", r"our own people",
    ),
    "AUTHORITY": (  # google / amazon / vendor / support / security team / ceo, and official / 客服 / 总经理 / 阿里云 / 腾讯
        r"谷歌", r"亚马逊", r"供应商", r"技术支持", r"支持团队", r"安全部门", r"首席执行官", r"董事长", r"财务总监", r"技术总监",
        r"\bofficial\b", r"customer (?:service|support)", r"help ?desk", r"general manager", r"managing director", r"chairman",
        r"\bcfo\b", r"\bcto\b", r"tencent", r"alibaba", r"aliyun", r"payment (?:platform|provider|processor)", r"security (?:department|office)",
    ),
}


def patch() -> Callable[[], None]:
    """Grow the four lexicons wherever the runtime holds them - every ``hindsight.safety`` module's own name for
    one, a tuple that lists one, and the two alternations built from their patterns; returns the undo."""
    import guard_model as gm  # the harness caches (prepared rows, structured rows) are keyed apart

    grown = {name: _c(_alt(getattr(fx, name).pattern, *extra)) for name, extra in ADD.items()}
    swap = {id(getattr(fx, name)): p for name, p in grown.items()}
    saved: list[tuple[object, str, object]] = [(gm, "DIGEST_SALT", gm.DIGEST_SALT)]
    for module in [m for n, m in sorted(sys.modules.items()) if n.startswith("hindsight.safety.") and m is not None]:
        for name, value in list(vars(module).items()):
            if id(value) in swap:
                new: object = swap[id(value)]
            elif isinstance(value, tuple) and any(id(v) in swap or (isinstance(v, tuple) and len(v) == 2 and id(v[1]) in swap)
                                                  for v in value):
                new = tuple(swap.get(id(v), v) if not isinstance(v, tuple) else (v[0], swap.get(id(v[1]), v[1]))
                            for v in value)
            else:
                continue
            saved.append((module, name, value))
            setattr(module, name, new)
    saved += [(fx, "_GATE", fx._GATE), (asserted, "AT_STAKE", asserted.AT_STAKE)]
    fx._GATE = _c(_alt(*(getattr(fx, n).pattern for n in ("PAYMENT", "EXPOSURE", "TRUST", "CREDENTIAL", "LOOSEN", "AUTHORITY"))))
    asserted.AT_STAKE = _c(_alt(*(getattr(asserted, n).pattern for n in (
        "LOOSEN", "DESTRUCTIVE", "CREDENTIAL", "EXPOSURE", "PAYMENT", "PRIVILEGE", "TRUST", "AUTHORITY", "APPROVAL", "CONTROL"))))
    gm.DIGEST_SALT = "parity26"

    def undo() -> None:
        for module, name, value in reversed(saved):
            setattr(module, name, value)

    return undo
