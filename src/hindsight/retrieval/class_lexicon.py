"""Class -> instance words for list questions (issue 14, round 40; `instance_weight` 0.5; 0 turns it off).

A question about a speaker's *class* of things ("What activities does Melanie partake in?", "What sports does John
like?", "Nate 养了什么宠物？") is answered by turns that name an *instance* ("I'm off to go swimming with the kids",
"surfing and riding the waves"), which the encoder places far from the question. This table maps a class word of
the question to common instance words, English and Chinese, hand-written (no LLM, no download); the words are
searched by BM25 over the named speaker's turns (search step 6d, `expansion.fuse_words`). The FTS index stems English
(porter), so one form of a word matches its inflections; Chinese words are segmented like the stored text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hindsight.text.tokenize import query_terms


@dataclass(frozen=True)
class WordClass:
    """One class: the words of a question that ask for it, and the instance words that answer it."""

    asks: frozenset[str]
    instances: tuple[str, ...]


def _c(asks: str, instances: str) -> WordClass:
    return WordClass(frozenset(asks.split()), tuple(instances.split()))


_SPORTS = ("swimming surfing running jogging hiking cycling biking skiing snowboarding skating climbing tennis soccer "
           "football basketball baseball volleyball golf yoga boxing karate kickboxing taekwondo judo wrestling "
           "rowing kayaking canoeing marathon gym workout 游泳 冲浪 跑步 徒步 骑车 滑雪 攀岩 网球 足球 篮球 排球 "
           "高尔夫 瑜伽 拳击 空手道 跆拳道 健身")
_OUTDOOR = ("camping hiking fishing picnic beach park garden gardening kayaking skiing climbing trip road-trip "
            "露营 钓鱼 野餐 海滩 公园 花园 旅行")
_ARTS = ("painting drawing sketching pottery ceramics sculpture knitting sewing crafts photography writing poetry "
         "dancing singing guitar piano violin drums 画画 绘画 陶艺 雕塑 编织 摄影 写作 诗 跳舞 唱歌 吉他 钢琴")
_GAMES = ("chess poker monopoly catan scrabble puzzle cards board-game videogame console xbox playstation nintendo "
          "switch minecraft fortnite zelda 象棋 围棋 扑克 拼图 桌游 游戏机")
_FOODS = ("pizza pasta burger sushi salad soup cake cookies pie bread curry tacos noodles steak chicken chocolate "
          "ice-cream cupcakes pancakes 披萨 面条 寿司 沙拉 汤 蛋糕 饼干 面包 咖喱 牛排 巧克力 冰淇淋")
_PETS = ("dog puppy cat kitten turtle turtles fish hamster rabbit bird parrot horse snake guinea 狗 小狗 猫 小猫 乌龟 "
         "金鱼 仓鼠 兔子 鸟 鹦鹉 马")
_MUSIC = ("guitar piano violin drums ukulele flute saxophone cello clarinet trumpet harp bass 吉他 钢琴 小提琴 鼓 "
          "尤克里里 长笛 萨克斯 大提琴")
_PLACES = ("beach mountains lake city museum park countryside island paris london rome tokyo italy france spain "
           "japan canada mexico england germany greece florida california hawaii 海滩 山 湖 城市 博物馆 巴黎 伦敦 "
           "东京 意大利 法国 西班牙 日本 加拿大")
_WORK = ("teacher nurse doctor engineer writer artist designer counselor chef lawyer manager volunteer developer "
         "programmer musician photographer therapist 老师 护士 医生 工程师 作家 艺术家 设计师 厨师 律师 志愿者 程序员")
_EVENTS = ("parade conference workshop festival concert fundraiser marathon rally meeting party wedding graduation "
           "birthday tournament competition charity 游行 会议 讲座 节日 音乐会 募捐 聚会 婚礼 毕业 生日 比赛")
_READING = ("book novel read reading story author series library 书 小说 读 故事 作者")
_SCREEN = ("movie film watched cinema series show documentary 电影 电视剧 纪录片")

CLASSES: tuple[WordClass, ...] = (
    _c("activities activity hobbies hobby interests pastime pastimes destress relax fun 活动 爱好 兴趣 消遣 放松",
       f"{_SPORTS} {_OUTDOOR} {_ARTS} {_GAMES}"),
    _c("sports sport exercise exercises workout workouts fitness martial 运动 锻炼 健身", _SPORTS),
    _c("outdoor outdoors nature trips trip vacation vacations 户外 旅行 度假", _OUTDOOR),
    _c("art arts crafts craft creative paint painted painting 艺术 手工 画", _ARTS),
    _c("games game 游戏", _GAMES),
    _c("food foods dishes dish recipes recipe desserts dessert cook cooked bake baked meal meals eat 食物 菜 食谱 甜点 "
       "做饭 吃", _FOODS),
    _c("pets pet animal animals 宠物 动物", _PETS),
    _c("instruments instrument musical 乐器", _MUSIC),
    _c("places place countries country cities city states visited travel traveled areas 地方 国家 城市 去过", _PLACES),
    _c("jobs job career careers profession work 工作 职业", _WORK),
    _c("events event participated attended 活动 参加", _EVENTS),
    _c("books book read reading authors 书 读", _READING),
    _c("movies movie films film shows watched 电影 看过", _SCREEN),
)

_WORD = re.compile(r"[a-z]+|[\u4e00-\u9fff]+")


def _question_words(question: str) -> set[str]:
    """The question's lower-cased English words and its Chinese words (segmented as the index is)."""
    low = question.lower()
    words = set(_WORD.findall(low))
    words.update(t for t in query_terms(low) if re.search(r"[\u4e00-\u9fff]", t))
    # a Chinese class word inside a longer unsegmented run ("什么宠物") still asks for the class
    han = "".join(re.findall(r"[\u4e00-\u9fff]+", low))
    words.update(w for c in CLASSES for w in c.asks if re.search(r"[\u4e00-\u9fff]", w) and w in han)
    return words


def classes_in(question: str) -> list[WordClass]:
    """The classes a question asks for (in table order); empty when it names none."""
    words = _question_words(question)
    return [c for c in CLASSES if c.asks & words]


#: a Chinese question asks for a list with these words ("哪些活动", "都做过什么运动")
_ZH_LIST = re.compile(r"哪些|些什么|都")


def asks_list(question: str) -> bool:
    """Whether the question asks for a list of a class: an English class word in the plural ("activities",
    "sports", "books"), or a Chinese class word with 哪些 / 些什么 / 都; "What book did she read?" does not."""
    words = _question_words(question)
    if any(w.endswith("s") and w in c.asks for c in CLASSES for w in words):
        return True
    return bool(_ZH_LIST.search(question)) and any(re.search(r"[\u4e00-\u9fff]", w) for c in classes_in(question)
                                                     for w in c.asks & words)


def instance_words(question: str, with_class: bool = False) -> list[str]:
    """The instance words of every class the question asks for (first use order, the question's own words left
    out); with `with_class`, the class words the question used come first. Empty when it asks for no class."""
    words = _question_words(question)
    out: dict[str, None] = {}
    for c in classes_in(question):
        if with_class:
            out.update(dict.fromkeys(sorted(c.asks & words)))
        out.update(dict.fromkeys(w for w in c.instances if w not in words))
    return list(out)
