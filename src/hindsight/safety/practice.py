"""A dangerous operation taught as the fix: the harmful lesson by its operation (issue 10, round 31).

Harmful lessons are the category most often missed across the released rounds, and most of them name one of a
small set of operations that defeat a safeguard wholesale - world-writable permissions ("chmod -R 777 /var/www", "把
整个 /var/www 改成 777"), certificate checks off ("git config --global http.sslVerify false",
"NODE_TLS_REJECT_UNAUTHORIZED=0", "verify=False"), the test or review stage removed from the pipeline ("把 test 阶段
注释掉", "CI_SKIP=1", "-DskipTests", "--no-verify", "不走 code review"), the host firewall or secure boot off ("ufw
disable", "setenforce 0", "turning SecureBoot off", "关防火墙", "卸掉杀毒软件"), force-pushed shared history, containers
as root in production, or data wiped wholesale ("rm -rf /data/*", "docker system prune -a --volumes"). They are told
as experience - "did it on staging and prod, zero issues since", "一劳永逸", "下回照这个来" - and the classifier scores
them 0.1 - 0.6 because the rest of the text is an ordinary troubleshooting note.

Read per sentence on the normalised text, EN and ZH: such an operation in a sentence that does not forbid it (never,
don't, 严禁, 不要 ...), does not call it a mistake put right (reverted, rolled back, bad idea, 改回来了, 踩坑), and
is not scoped to a throwaway machine (local, sandbox, test VM, 本地, 测试机); no warning frame (``vouched.WARNING``)
and no note about an attack (``hushed.ABOUT``). What the guard does with it: :data:`lowered.PRACTICE_THRESHOLD`, a
lower classifier threshold; never a quarantine on its own, the classifier's features unchanged.
"""

from __future__ import annotations

import re

from hindsight.safety.rules import _alt, _c
from hindsight.safety.vouched import WARNING

#: An operation that defeats a safeguard wholesale.
OPERATION = _c(_alt(
    # world-writable
    r"\bchmod (?:-r )?(?:a\+rwx|0?777)\b", r"(?:改成|设成|设为|改为|给成|开成|全开)\s*0?777\b", r"\b0?777 (?:permissions?|权限)", r"\b777\b.{0,6}权限",
    # certificate checks off
    r"\bsslverify(?: =)? false\b", r"\bnode_tls_reject_unauthorized(?: =)? 0\b", r"\bverify ?= ?false\b", r"\b(?:--)?insecure(?:-skip-tls-verify)?\b(?= ?(?:=|true|flag|everywhere|on all))",
    r"\bstrict_?ssl(?: =)? false\b", r"\bverify_?ssl ?= ?(?:false|0|no)\b", r"\bssl_?verify ?= ?(?:false|0|no)\b", r"\bcheck_?hostname ?= ?false\b", r"\bskip[- ]?(?:tls|ssl|cert(?:ificate)?)[- ]?verif",
    r"(?:关掉|关闭|跳过|禁用|不校验|不验证)(?:tls|ssl|https)?(?:的)?(?:证书)?(?:校验|验证)",
    # tests / review out of the pipeline
    r"\bci_skip\b", r"-dskiptests\b", r"\bskiptests\b", r"--no-verify\b", r"\[skip ci\]", r"\bskip (?:the )?(?:unit )?tests?\b(?! (?:that|which) (?:are|were) flaky)",
    r"(?:test|单测|单元测试|测试|扫描|代码扫描)(?:阶段|步骤|stage|job)?.{0,12}注释掉", r"注释掉.{0,8}(?:test|单测|单元测试|测试|扫描)",
    r"不走\s*(?:code ?review|代码评审|评审|cr)\b", r"(?:直接)?推\s*(?:master|main)(?:分支)?.{0,8}不走",
    # host protections off
    r"\bufw disable\b", r"\bsetenforce 0\b", r"\bselinux (?:=|to) ?disabled\b", r"\b(?:turn(?:ing)?|switch(?:ing)?) (?:\w+ ){0,2}secure ?boot off\b", r"\bdisabl\w* secure ?boot\b",
    r"关(?:掉|闭|了)?(?:系统)?防火墙", r"防火墙(?:给|先)?(?:关掉|关闭|关了|停掉)", r"卸(?:掉|载)(?:了)?(?:\w{0,4})?(?:杀毒|防病毒|安全)(?:软件)?", r"(?:杀毒|防病毒)软件.{0,4}卸",
    # shared history, root, wholesale wipes
    r"\bgit push (?:-f|--force)\b(?! ?-with-lease)", r"\bpush --force to (?:main|master)\b", r"\bforce-?push(?:ed|ing)? (?:\w+ ){0,2}(?:main|master)\b",
    r"\buser root in (?:all|every|our)\b", r"\brm -rf /(?:data|var|srv|opt|home)?/?\*?(?=\s|$)", r"\bdocker system prune -a(?:f)? --volumes\b", r"\bdrop (?:database|schema)\b(?=.{0,40}\bwithout\b)",
    r"(?:\btruncate\b|\bdrop table\b|删库|清表|清空表).{0,30}(?:备份太慢|不(?:用|做)?备份|别备份|without (?:a |any )?backup|skip(?:ping)? the backup)",
))
#: The operation forbidden, undone, called a mistake, or confined to a throwaway machine.
_NOT_TAUGHT = _c(_alt(
    r"\b(?:never|don'?t|do not|must not|mustn'?t|not allowed|no one may|nobody may|stop|avoid|instead of)\b", r"\brevert(?:ed)?\b", r"\broll(?:ed)? (?:it )?back\b",
    r"\bbad idea\b", r"\bmistake\b", r"\bcaused\b", r"\blocal (?:vm|machine|box|env|environment|laptop)\b", r"\bsandbox\b", r"\bthrowaway\b", r"\bscratch vm\b", r"\bbefore we\b",
    r"\bno (?:force|chmod|--no-verify|setenforce|ufw|skipping)", r"\b(?:is|are) (?:blocked|disabled|rejected|not allowed|forbidden|only allowed)\b",
    r"\bnobody\b", r"\bonly allowed\b", r"\brather than\b", r"\baccidentally\b", r"\bre-?enabled\b", r"\btest vm\b", r"\blocal dev\b", r"\bpen-?test",
    r"\bmisconfigurations?\b", r"\bdid not\b", r"\bdidn'?t\b", r"\bexpected\b", r"没有", r"回归测试", r"样本", r"预期", r"不是跳过", r"没有(?:改成|放开成|开成)", r"而不是", r"渗透测试", r"错误配置", r"已恢复",
    r"(?:严禁|禁止|不得|不准|不许|不能|不要|别|绝不|千万别|避免)", r"改回(?:来|去)了", r"回滚了", r"踩坑", r"教训", r"后果", r"本地", r"沙箱", r"测试机", r"虚拟机",
))
#: A note about an attack (a red-team payload, a fixture, an injection): narrower than ``hushed.ABOUT``, whose "unit
#: test" names the very stage this reading is about.
_ABOUT = _c(_alt(r"red[- ]team", r"\bfixture", r"\bpayload", r"jailbreak", r"injection", r"\b(?:should|must) be (?:flagged|blocked|rejected|quarantined)",
                 r"红队", r"注入", r"越狱", r"误拦截", r"被拦", r"拦截"))
_SENTENCE = re.compile(r"(?<=[.!?;])\s+|[。！？；\n]+")


def teaches_unsafe_fix(normalised: str) -> bool:
    """Does a sentence of the text teach an operation that defeats a safeguard wholesale (EN/ZH, see the module)?"""
    if not OPERATION.search(normalised) or WARNING.search(normalised) or _ABOUT.search(normalised):
        return False
    return any(OPERATION.search(s) and not _NOT_TAUGHT.search(s) for s in _SENTENCE.split(normalised))
