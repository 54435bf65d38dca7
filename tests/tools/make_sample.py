"""Generate siftui's bundled sample PDF: ``python tests/tools/make_sample.py [OUT]``.

The sample is a real multi-page PDF written with PyMuPDF: metadata, a nested
outline with page targets, about fifty pages of English prose (long enough that
the default OutCap shows a map), one page of simplified Chinese, one image-only
page without a text layer, and a few very long lines for grep's windowing.

All text is written here and laid out deterministically, so every run gives the
same page texts (``tests/test_sample.py`` checks the bundled file against a fresh
run of this script).
"""

# mypy: allow-untyped-calls
# (PyMuPDF's annotations are partial, as for siftui.sources.extract in pyproject.toml.)

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pymupdf

DEFAULT_OUT = Path(__file__).resolve().parents[2] / "siftui" / "data" / "sample.pdf"

TITLE = "Field Notes on Reading Long Documents"
AUTHOR = "siftui"
SUBJECT = "How an agent reads a long PDF through a bounded tool"
KEYWORDS = "budget, page ranges, search, outline, agents"
FIXED_DATE = "D:20250101120000+00'00'"

# Page geometry (A4, points).
PAGE_W, PAGE_H = 595.0, 842.0
MARGIN_X, MARGIN_TOP, MARGIN_BOTTOM = 78.0, 78.0, 84.0
BODY_FONT, BOLD_FONT, MONO_FONT, CJK_FONT = "helv", "hebo", "cour", "china-s"
BODY_SIZE = 11.5
LINE_HEIGHT = 1.36
PARA_GAP = 10.0
HEADING_SIZES = {1: 17.0, 2: 13.5, 3: 11.5}
FOOTER_SIZE = 8.0


# --------------------------------------------------------------------------
# Document model
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Heading:
    level: int
    title: str
    bookmark: bool = True  # False: a heading on the page with no outline entry


@dataclass(frozen=True)
class Para:
    text: str


@dataclass(frozen=True)
class Mono:
    """Pre-formatted lines in a monospaced font (a table-like list)."""

    lines: tuple[str, ...]
    size: float = 8.6


@dataclass(frozen=True)
class FinePrint:
    """Lines in very small type: each comes out as one long extracted line."""

    lines: tuple[str, ...]
    size: float = 2.2


@dataclass(frozen=True)
class ChinesePage:
    """A heading (also an outline entry) and paragraphs of simplified Chinese."""

    title: str
    paragraphs: tuple[str, ...]


@dataclass(frozen=True)
class ImagePage:
    """A page holding only a raster image (a 'scanned' page with no text layer)."""

    outline_title: str


Block = Heading | Para | Mono | FinePrint | ChinesePage | ImagePage


# --------------------------------------------------------------------------
# The prose. Hand-written paragraphs open each section; the rest of a section
# is built deterministically from the sentence pools below.
# --------------------------------------------------------------------------

GENERAL = (
    "An agent that reads a document never sees the document itself; it sees whatever "
    "string the read tool decided to return, and nothing else.",
    "The budget is the one number that shapes every answer, so it deserves to be "
    "stated, measured and respected rather than guessed.",
    "A prompt engineer who wants to know why an agent missed a fact should start by "
    "looking at the exact text the agent received.",
    "Every answer should say how it was cut and which call would continue it, because "
    "an agent cannot ask what it does not know exists.",
    "It is tempting to blame the model for a wrong answer when the real cause is a "
    "page that was never shown to it.",
    "Long documents are not uniformly useful: a thesis spends pages on acknowledgements, "
    "lists of figures and references that rarely answer a question.",
    "Page numbers are the lingua franca between the agent, the tool and the person "
    "who checks the work afterwards.",
    "When the budget runs out in the middle of a page, the honest thing to do is to "
    "stop at the last whole page and say so.",
    "A small, predictable answer is worth more to an agent than a large one whose "
    "shape changes from call to call.",
    "The same document and the same options must always produce the same string, "
    "otherwise no test and no prompt can rely on it.",
    "Most of the work of reading is deciding what not to read, and a good tool makes "
    "that decision visible.",
    "Nothing in the returned text should surprise a careful reader who knows the "
    "rules; surprises are where agents go wrong.",
    "A reader with a budget behaves like a traveller with a fixed amount of cash: "
    "every choice spends something that cannot be spent twice.",
    "The cost of a call is not only the characters it returns but also the turn it "
    "takes, and turns are the scarcest resource in a long conversation.",
    "Good defaults matter because most agents never change them.",
    "A budget that is counted in bytes punishes documents in scripts other than "
    "Latin, which is one reason to count code points instead.",
    "If a document has an outline, the outline is usually the cheapest map of its "
    "contents that one can buy.",
    "Extraction is not interpretation: the tool returns the text layer as the PDF "
    "library finds it, hyphens, ligatures and odd line breaks included.",
    "An agent that keeps notes of the pages it has read can avoid paying twice for "
    "the same text within one budget.",
    "Whenever a rule seems arbitrary, it helps to ask what an agent needs in order to "
    "make the next call correctly.",
    "Reading a document well under a budget is closer to skimming a library than to "
    "reading a novel from the first page to the last.",
    "The note attached to an answer is short on purpose; it exists to be copied "
    "into the next call, not to be admired.",
    "Tools that hide their limits produce agents that overstate what they have read.",
    "A budget spent on the wrong pages is worse than a budget left unspent, because "
    "it leaves the agent confident and wrong.",
    "The cheapest call is the one that is never made because the previous answer "
    "already said where the information is.",
)

POOLS: dict[str, tuple[str, ...]] = {
    "intro": (
        "A typical thesis runs to two hundred pages and somewhere between sixty and one "
        "hundred and fifty thousand tokens.",
        "Even a generous context window fills quickly when a single document is pasted "
        "into it whole.",
        "Agents therefore read through tools that return a bounded slice of a document "
        "and a way to ask for the next slice.",
        "The design question is not whether to bound the answer but how to bound it so "
        "that the agent can still find its way.",
        "A long report has a shape: front matter, a body divided into chapters, and back "
        "matter that few people read.",
        "The shape is often visible in the outline, the bookmarks that a PDF carries "
        "alongside its pages.",
        "Not every PDF has an outline; scanned reports and exported slides frequently "
        "have none at all.",
        "When there is no outline, the first pages and a few well chosen searches must "
        "do the work of a table of contents.",
        "What the agent receives is plain text with page markers, one page after the "
        "other, in the order of the file.",
        "The page markers are short and regular, so that both people and programs can "
        "find them without ambiguity.",
        "Whitespace at the start and the end of each page is trimmed, but nothing inside "
        "the page is changed.",
        "Headers and footers are repeated on every page of the text, exactly as the PDF "
        "library extracts them.",
        "A reader who expects clean paragraphs will be disappointed; line breaks follow "
        "the layout of the page, not the grammar of the sentence.",
        "The point of showing the raw string is that the agent sees the same raw string, "
        "with the same flaws.",
        "Front matter can easily take ten pages before the first sentence of the actual "
        "argument appears.",
        "References at the end of a thesis are dense with names and years, which makes "
        "them cheap to search and expensive to read.",
        "A report written for a committee often repeats its conclusions three times: in "
        "the summary, at the end of each chapter and in the final chapter.",
        "Knowing where the repetition lies lets a reader with a budget skip two of the "
        "three copies.",
        "Page one of a PDF is rarely page one of the printed book, and the outline uses "
        "the numbering of the file, not the numbering of the print.",
    ),
    "budgets": (
        "The output cap, or OutCap, is the largest number of characters that a single "
        "answer may contain.",
        "By default the budget is one hundred thousand code points, roughly twenty-five "
        "thousand tokens of English text.",
        "A code point is what Python counts when it measures the length of a string.",
        "Counting bytes would make a page of Chinese three times as expensive as a page "
        "of English with the same number of characters.",
        "The budget protects the context of the agent, not the disk or the network.",
        "Four characters per token is a rough average for English prose; code, tables "
        "and other scripts can differ considerably.",
        "A budget that is too small still produces a valid answer, only a shorter one "
        "with a note that says where to continue.",
        "When the whole text fits within the budget, the agent simply receives all of it "
        "and no map is needed.",
        "When it does not fit, the answer becomes a map, and the budget decides how many "
        "leading pages the map can afford to show.",
        "A quarter of the budget is reserved for leading pages in a map, which leaves "
        "room for a long outline without crowding out the text.",
        "Doubling the budget rarely doubles the usefulness of an answer; it mostly "
        "doubles the cost of the turn.",
        "The estimate of tokens in the header is deliberately crude: the length of the "
        "full text divided by four.",
        "An agent that knows the size of the whole document can plan its budget across "
        "several calls instead of spending it all at once.",
        "Very small budgets are useful in tests because they expose every cutting rule "
        "with a few lines of input.",
        "The budget applies to the content alone; the note travels beside it and is not counted.",
        "A careful tool never exceeds the budget, not even by one character, because an "
        "agent may rely on that bound when it plans.",
        "Emoji, accented letters and mathematical symbols each count as one code point, "
        "even when they take several bytes on disk.",
        "A combining accent is a code point of its own, so a word can be longer in code "
        "points than it looks on the screen.",
        "Spending the whole budget on the first call leaves nothing for the questions "
        "that the first answer raises.",
        "A budget of a few thousand characters is enough for a map of most documents, "
        "though not for many of their pages.",
        "The budget is a ceiling, not a target; an answer that needs only a page should "
        "return only a page.",
    ),
    "ranges": (
        "A page range is written as two numbers with a hyphen between them, such as pages 12-20.",
        "A single number asks for one page, and a number followed by a hyphen asks for "
        "everything from that page to the end.",
        "Ranges are inclusive at both ends, which matches how people cite pages in print.",
        "A range that begins before page one or after the last page is an error, and the "
        "error names the valid range.",
        "A range that ends after the last page is quietly clamped, because asking for "
        "too much is a common and harmless mistake.",
        "Whole pages are returned until the next page would break the budget or until "
        "one hundred pages have been shown.",
        "When the answer stops early, the note gives the exact range that continues it.",
        "An agent can copy the suggested range into its next call without doing any "
        "arithmetic of its own.",
        "If a single page is larger than the budget, the page is cut, and the note says "
        "how many characters were kept out of how many.",
        "Cutting at page boundaries keeps page numbers meaningful: every page shown is "
        "shown completely or marked as cut.",
        "A map followed by two or three range requests is the most common way to read a "
        "long report within a budget.",
        "The outline makes ranges cheap to choose, since each entry carries the page on "
        "which its section begins.",
        "Reading a chapter at a time is a natural rhythm for an agent, provided the "
        "chapters are not longer than the budget.",
        "Pages that were not extracted cannot be requested, and the error says how many "
        "pages are available.",
        "Spaces around the range are ignored, but letters, commas and negative numbers "
        "are not accepted.",
        "The limit of one hundred pages per answer keeps very short pages from turning a "
        "range into a dump of the whole file.",
        "A range of one page is the most precise request there is, and it is often the "
        "right one after a search.",
        "An agent that follows the notes from one range to the next will read the whole "
        "document in order, one budget at a time.",
    ),
    "search": (
        "A search pattern is a regular expression in the RE2 dialect, which runs in "
        "linear time and cannot be made to hang.",
        "Smart case means that a pattern in lower case ignores case, while a pattern "
        "with any capital letter matches case exactly.",
        "Each page is split into lines, each line is trimmed, and the pattern is tried "
        "against every trimmed line.",
        "A matching line is shown with its page number and with the lines just before "
        "and after it on the same page.",
        "Context lines make a match readable without forcing the agent to fetch the whole page.",
        "Lines that are very long are shown as a window around the first match, with an "
        "ellipsis where text was left out.",
        "The header of a search answer states how many lines matched, even when only "
        "some of them can be shown.",
        "At most one hundred matches are shown; a broader search should be narrowed or "
        "limited to a range of pages.",
        "When the matches do not fit in the budget, whole blocks are dropped from the "
        "end and the note says how many remain.",
        "A search for budget in this document finds matches on most of its pages, which "
        "makes it a useful test of the limits.",
        "A pattern that does not compile is reported with the error text from RE2, so "
        "that the agent can fix it.",
        "Searching is the fastest way to answer a narrow question in a long document, "
        "and the slowest way to understand its argument.",
        "Because lines follow the layout, a phrase that wraps across two lines will not "
        "match a pattern that spans the break.",
        "Short, distinctive words make the best patterns: a name, a number, a term "
        "defined in the glossary.",
        "A search can be combined with a page range, which is useful when the same word "
        "means different things in different chapters.",
        "A search that finds nothing is not an error; the header simply reports no "
        "matches, and the agent can try another word.",
        "Patterns longer than two hundred bytes are refused, which keeps searches short "
        "and their cost predictable.",
        "Anchors such as a caret or a dollar sign refer to the start and end of a trimmed "
        "line, not of the page.",
        "Searching for a section number is a quick way to find where a chapter begins "
        "when the outline is missing.",
    ),
    "difficult": (
        "Some pages have no text layer at all: they are pictures of paper, produced by a "
        "scanner or a camera.",
        "For such a page the extracted text is empty, and the agent sees a page marker "
        "followed by nothing.",
        "An empty page is a signal, not an absence: there may be content that only "
        "optical character recognition could recover.",
        "Figures, charts and formulas drawn as images are invisible to a text-only "
        "reader, however important they are.",
        "Documents in scripts other than Latin are extracted just as faithfully, as long "
        "as the fonts carry the right character maps.",
        "A page of Chinese contains no spaces between words, so line breaks can fall in "
        "the middle of what a reader sees as a word.",
        "Mathematical text often extracts poorly: superscripts, fractions and symbols "
        "come out in an order that follows the drawing, not the meaning.",
        "Tables are flattened into lines, with cells separated by whatever spacing the "
        "layout happened to produce.",
        "Two-column layouts may interleave the columns or keep them apart, depending on "
        "how the PDF was written.",
        "A default that never changes the text is easier to trust than a clever cleanup "
        "that sometimes goes wrong.",
        "Where an option changes the extraction, such as recognition of scanned pages, "
        "it must be asked for explicitly.",
        "Encrypted files need a password before any page can be read, and a wrong "
        "password is reported as such.",
        "Ligatures such as fi and fl sometimes come out as single characters, which can "
        "make a search for a plain word fail.",
        "Hyphenated words at the end of a line stay hyphenated in the extracted text, "
        "split across two lines.",
        "Footnotes are extracted where they are drawn, usually at the bottom of the page, "
        "far from the sentence that refers to them.",
    ),
    "session": (
        "The agent begins with a call that has no options and receives the map of the document.",
        "From the outline it learns that the method is described in chapter three, which "
        "starts on page fourteen.",
        "It asks for pages 14-22 and receives pages fourteen to nineteen, with a note "
        "that suggests pages 20-22 next.",
        "Before continuing, it searches for the word budget to see where the costs are discussed.",
        "The search reports forty matching lines, of which all fit in the answer.",
        "The agent notices that the appendix contains a table of calls and asks for the "
        "last four pages.",
        "With the table in view it can answer the question it was given, citing pages "
        "for every claim.",
        "The whole session used five calls and a little under half of the budget that "
        "reading the full text would have cost.",
        "A person reviewing the session can replay every call and see exactly the same "
        "strings that the agent saw.",
        "Had the agent asked for the whole document in one call, it would have received "
        "the same map again.",
        "The note of each answer told the agent precisely what to ask next, so it never "
        "had to guess a page number.",
        "At the end of the session the agent had read perhaps a third of the pages, and "
        "it had read the right third.",
        "Its final answer quoted two sentences from page forty-one and one table from the "
        "appendix, each with its page number.",
        "A second agent, given the same question and a smaller budget, needed two more "
        "calls but reached the same pages.",
        "The reviewer noticed that one figure the authors relied on was a scanned page, "
        "which neither agent could read.",
    ),
}


@dataclass
class Chooser:
    """A tiny linear congruential generator, so the prose never depends on `random`."""

    state: int

    def next(self, bound: int) -> int:
        self.state = (self.state * 1103515245 + 12345) % (1 << 31)
        return (self.state >> 8) % bound


@dataclass
class Deck:
    """Sentences dealt in shuffled rounds, so that repeats are spread far apart."""

    sentences: tuple[str, ...]
    choose: Chooser
    left: list[str] = field(default_factory=list)

    def deal(self) -> str:
        if not self.left:
            self.left = list(self.sentences)
            for i in range(len(self.left) - 1, 0, -1):  # Fisher-Yates
                j = self.choose.next(i + 1)
                self.left[i], self.left[j] = self.left[j], self.left[i]
        return self.left.pop()


def generated(decks: dict[str, Deck], pool: str, count: int, seed: int) -> list[Para]:
    """``count`` paragraphs of five to seven sentences from a pool's deck and GENERAL's.

    The decks are shared by one document build (see ``content``), so that the same
    sentence does not come back soon after it was used.
    """
    choose = Chooser(seed)
    own = decks.setdefault(pool, Deck(POOLS[pool], Chooser(seed + 1000)))
    general = decks.setdefault("general", Deck(GENERAL, Chooser(7)))
    paragraphs: list[Para] = []
    for _ in range(count):
        size = 5 + choose.next(3)
        picked: list[str] = []
        while len(picked) < size:
            sentence = (own if choose.next(10) < 7 else general).deal()
            if sentence not in picked:
                picked.append(sentence)
        paragraphs.append(Para(" ".join(picked)))
    return paragraphs


CHINESE = (
    "当一个智能体读取一份很长的PDF文件时，它看到的并不是整本书，而是读取工具在预算之内交给它的一段文字。"
    "预算以字符计算，而不是以字节计算，因为一个汉字在UTF-8编码中占三个字节；如果按字节计算，"
    "中文文档就会被不公平地截短。",
    "如果全文超过了输出上限，工具会先给出一张“地图”：标题、页数、目录，以及开头的几页。"
    "智能体可以根据目录中的页码继续请求某一个页码范围，例如第十二页到第二十页，"
    "也可以用一个正则表达式搜索关键词。每一次回答都会说明它在哪里被截断，以及下一次应该怎样请求。",
    "搜索中文时要注意，中文的词与词之间没有空格，一个词可能被排版拆到两行。"
    "搜索“预算”这样的短词通常可以找到，但较长的短语可能因为换行而找不到。"
    "这时可以缩短搜索模式，或者直接请求相关的页码。",
    "最后，扫描版的页面没有文字层，工具只能返回空字符串。智能体应该把空白页当作一个信号："
    "这里可能有内容，但需要光学字符识别才能读到。一个好的工具不会悄悄地替用户做这件事，"
    "而是把选择留给使用它的人。",
)

GLOSSARY = (
    (
        "Agent",
        "a program built around a language model that decides which tool to call "
        "next and reads the answers it receives.",
    ),
    ("Answer", "the string a read tool returns for one call, never longer than the budget."),
    (
        "Budget",
        "the number of characters an answer may use; also called the output cap "
        "or OutCap. The default budget is one hundred thousand code points.",
    ),
    (
        "Code point",
        "one Unicode character as Python counts it; the unit of every length in this document.",
    ),
    (
        "Context window",
        "the amount of text a model can consider at once, shared by the "
        "prompt, the conversation and every tool answer.",
    ),
    (
        "Extraction",
        "turning the pages of a PDF into plain text, one string per page, without any cleanup.",
    ),
    ("Full text", "every extracted page with its page marker, joined by blank lines."),
    (
        "Grep",
        "a search of the extracted lines with a regular expression, answered with "
        "page numbers and context lines.",
    ),
    (
        "Image-only page",
        "a page whose content is a picture with no text layer; its extracted text is empty.",
    ),
    (
        "Leading pages",
        "the first pages of a document shown in a map, as many as fit in a quarter of the budget.",
    ),
    (
        "Lemma",
        "a small proven statement used on the way to a larger one; see section "
        "3.2.2 for two lemmas about page ranges.",
    ),
    (
        "Map",
        "the answer given when the full text does not fit: title, size, outline, an "
        "instruction line and the leading pages.",
    ),
    (
        "Note",
        "a short remark beside an answer that says how it was cut and which call continues it.",
    ),
    ("Outline", "the bookmarks of a PDF, a tree of titles with the pages they point to."),
    (
        "Page marker",
        "the line that introduces each page in the full text, three hyphens, "
        "the word page, the number and three hyphens.",
    ),
    (
        "Page range",
        "a request for pages written as a-b, a, or a- for everything from a to the end.",
    ),
    (
        "RE2",
        "a regular expression engine that guarantees linear running time, used for every search.",
    ),
    ("Smart case", "the rule that a pattern without capital letters ignores case."),
    (
        "Text layer",
        "the characters a PDF stores alongside its drawing instructions; "
        "without it a page cannot be searched.",
    ),
    ("Token", "the unit a model counts; about four characters of English prose."),
)

TABLE_1 = (
    "Table 1. Calls an agent can make, and what each one costs.",
    "",
    "call                      returns                               typical budget use",
    "------------------------  ------------------------------------  ------------------",
    "read()                    full text, or a map if too long       up to the budget",
    'read(pages="1-20")        pages 1 to 20, whole pages only       up to the budget',
    'read(pages="7")           page 7 alone, cut if over budget      one page',
    'read(pages="41-")         page 41 to the last page              up to the budget',
    'read(grep="budget")       matching lines with page numbers      a few lines each',
    'read(grep="Lemma \\d")     numbered lemmas, case-sensitive       a few lines each',
    'read(grep="x", pages=..)  matches inside a page range only      a few lines each',
    "",
    "Table 2. Notes an answer may carry.",
    "",
    "situation                 note",
    "------------------------  --------------------------------------------------------",
    'stopped before the end    cut at page N; ask for pages="N+1-B"',
    "one page over budget      page A cut to C of L characters",
    "too many matches          showing the first 100 of N matches; narrow the pattern",
    "matches over budget       showing K of N matches to fit OutCap",
    "everything fits           (no note)",
)


def log_line(n: int) -> str:
    """A long machine-written line (several hundred characters, one extracted line)."""
    fields = [
        f"2025-01-0{n}T09:{10 + n}:4{n}Z",
        "level=info",
        "tool=read_pdf",
        "path=reports/annual-review-2024.pdf",
        f'pages="{10 * n + 1}-{10 * n + 20}"',
        'grep=""',
        "out_cap=100000",
        f"returned_chars={61000 + 1234 * n}",
        f"budget_left={39000 - 1234 * n}",
        f"first={10 * n + 1}",
        f"last={10 * n + 14}",
        "map=false",
        f'note="cut at page {10 * n + 14}; ask for pages=\\"{10 * n + 15}-{10 * n + 20}\\""',
        f"elapsed_ms={120 + 7 * n}",
        "extractor=pymupdf-1.28.2",
        f"session=7f3c9a{n}e-budget-audit",
        "agent=field-notes-reader",
        "model_context=200000",
        f"outline_items={20 + n}",
        "cache=hit",
        "warnings=none",
        "pages_extracted=212",
        "page_count=212",
    ]
    return " ".join(fields)


def content() -> list[Block]:
    """The whole document, in order."""
    blocks: list[Block] = []
    decks: dict[str, Deck] = {}

    def add(*items: Block) -> None:
        blocks.extend(items)

    def generated_(pool: str, count: int, seed: int) -> list[Para]:
        return generated(decks, pool, count, seed)

    add(
        Heading(1, "Preface"),
        Para(
            "These notes collect what we learned while watching language-model agents read "
            "long documents through a tool with a fixed budget. They are written for the "
            "people who build such tools and for the prompt engineers who have to explain "
            "afterwards why an agent answered the way it did."
        ),
        Para(
            "The notes are deliberately repetitive in places. A document used to test a "
            "reader should be long, should contain the same words on many pages, and "
            "should include the awkward cases that real files contain: a page with no "
            "text, a page in another script, and lines far longer than any sentence."
        ),
        Para(
            "Chapter 1 explains why reading is bounded at all. Chapter 2 is about budgets "
            "and how they are counted. Chapter 3 describes maps and page ranges, with two "
            "small lemmas about progress. Chapter 4 covers searching. Chapter 5 looks at "
            "difficult pages, Chapter 6 follows one reading session from start to end, "
            "and the glossary and appendix close the volume."
        ),
    )

    add(
        Heading(1, "1 Why Reading Is Bounded"),
        Para(
            "An agent works inside a context window, and everything it knows about a "
            "document at a given moment has passed through that window. A tool that "
            "returns a whole book in one answer does not help the agent read the book; it "
            "crowds out the conversation, the instructions and the other tools."
        ),
        Heading(2, "1.1 The shape of a long document"),
        *generated_("intro", 14, seed=11),
        Heading(2, "1.2 What an agent actually receives"),
        Para(
            "The string an agent receives is built from the extracted text of each page. "
            "Each page is introduced by a marker line with its number, followed by a blank "
            "line and the page text with surrounding whitespace removed. Pages are "
            "separated by a blank line, and there is no newline at the very end."
        ),
        *generated_("intro", 13, seed=12),
    )

    add(
        Heading(1, "2 Budgets"),
        Para(
            "Every answer has a budget. The budget is a number of characters, chosen so "
            "that a single answer can never crowd the rest of the conversation out of the "
            "context window. This chapter describes how the budget is counted and what "
            "happens at its edge."
        ),
        Heading(2, "2.1 Counting in code points"),
        *generated_("budgets", 11, seed=21),
        Heading(2, "2.2 The output cap"),
        *generated_("budgets", 6, seed=22),
        Heading(3, "2.2.1 Characters and tokens"),
        Para(
            "A budget of one hundred thousand characters corresponds to about twenty-five "
            "thousand tokens of English. The ratio is an average, not a law: a page of "
            "source code, a table of numbers or a page of Chinese can be much more or much "
            "less expensive per character."
        ),
        *generated_("budgets", 8, seed=23),
        Heading(3, "2.2.2 When the budget is too small"),
        *generated_("budgets", 9, seed=24),
    )

    add(
        Heading(1, "3 Maps and Page Ranges"),
        Para(
            "When the full text does not fit in the budget, the first answer is a map. A "
            "map gives the title, the number of pages and an estimate of the tokens, the "
            "outline with page numbers, one line that explains how to ask for more, and as "
            "many leading pages as fit in a quarter of the budget."
        ),
        Heading(2, "3.1 The map"),
        *generated_("ranges", 9, seed=31),
        Heading(2, "3.2 Asking for a range"),
        *generated_("ranges", 9, seed=32),
        Heading(3, "3.2.1 Cutting at page boundaries"),
        *generated_("ranges", 7, seed=33),
        Heading(3, "3.2.2 A small lemma about progress"),
        Para(
            "Lemma 1. If every page of a document is shorter than the budget, then every "
            "range request that is answered returns at least one whole page, and following "
            "the notes reaches the last page in a finite number of calls."
        ),
        Para(
            "Proof. The first page of the range always fits, because it is shorter than "
            "the budget; so each answer shows at least one page, and each note starts one "
            "page later than the previous answer ended. The number of pages is finite, so "
            "the sequence of calls ends."
        ),
        Para(
            "Lemma 2. If some page is longer than the budget, the answer for that page is "
            "cut, and the note names the next page, so progress is still guaranteed, "
            "though part of the long page is never seen. Lemma 2 is the reason the note "
            "says how many characters were kept: the agent learns that it missed "
            "something even when it cannot see what."
        ),
        *generated_("ranges", 7, seed=34),
    )

    add(
        Heading(1, "4 Searching"),
        Para(
            "Searching answers narrow questions cheaply. The agent supplies a pattern, the "
            "tool returns every matching line with its page number and a line of context "
            "on each side, and the header says how many lines matched in total."
        ),
        Heading(2, "4.1 Patterns and smart case"),
        *generated_("search", 10, seed=41),
        Heading(2, "4.2 Context lines and limits"),
        *generated_("search", 8, seed=42),
        Para(
            "When a pattern matches more lines than can be shown, the answer still counts "
            "every match in its header. The agent can then decide whether to narrow the "
            "pattern, to add a page range, or to accept the first hundred matches as a "
            "sample of the rest."
        ),
        *generated_("search", 7, seed=43),
    )

    add(
        Heading(1, "5 Difficult Pages"),
        Para(
            "Real documents are not clean. This chapter collects the pages that surprise "
            "readers most often: pages without a text layer, pages in scripts other than "
            "Latin, and pages whose text comes out in an unexpected order."
        ),
        Heading(2, "5.1 Scanned pages"),
        *generated_("difficult", 8, seed=51),
        Para(
            "The next page of this document is such a page. It holds a picture of a page "
            "and a small chart, drawn and then rasterised, and no text at all. A reader "
            "that relies on the text layer will see its page marker and nothing after it."
        ),
        ImagePage("Figure 5.1, a scanned page"),
        Heading(2, "5.2 Other scripts"),
        *generated_("difficult", 7, seed=52),
        Para(
            "The following page is written in simplified Chinese. It repeats the main "
            "points of these notes, and it is a reminder that the budget is counted in "
            "code points, so that a page of Chinese costs what its characters cost."
        ),
        ChinesePage("5.2.1 中文笔记：预算与页码", CHINESE),
        *generated_("difficult", 6, seed=53),
    )

    add(
        Heading(1, "6 A Worked Session"),
        Para(
            "This chapter follows one agent through one question, asked about a report of "
            "two hundred and twelve pages: what did the authors conclude about the cost "
            "of reading, and on which pages do they say so?"
        ),
        *generated_("session", 18, seed=61),
    )

    add(Heading(1, "Glossary"))
    add(*(Para(f"{term}: {meaning}") for term, meaning in GLOSSARY))

    add(
        Heading(1, "Appendix A: Reference Tables"),
        Heading(2, "A.1 Calls and notes", bookmark=False),
        Para(
            "Table 1 lists the calls an agent can make and what each returns. Table 2 "
            "lists the notes that may accompany an answer. Both tables are set in a "
            "monospaced font, so that their columns survive extraction as runs of spaces."
        ),
        Mono(TABLE_1),
        Heading(2, "A.2 A log excerpt", bookmark=False),
        Para(
            "The lines below are copied from a tool log and set in very small type. Each "
            "one is extracted as a single line of several hundred characters, which is "
            "useful for testing how search results show long lines."
        ),
        FinePrint(tuple(log_line(n) for n in range(1, 6))),
        Para(
            "End of the notes. Every figure about the budget in this document is an "
            "example, not a recommendation; measure your own documents."
        ),
    )
    return blocks


# --------------------------------------------------------------------------
# Layout
# --------------------------------------------------------------------------


@dataclass
class Layout:
    doc: Any
    page: Any = None
    y: float = 0.0
    toc: list[list[Any]] = field(default_factory=list)
    text_pages: list[int] = field(default_factory=list)

    @property
    def bottom(self) -> float:
        return PAGE_H - MARGIN_BOTTOM

    def new_page(self, *, text: bool = True) -> None:
        self.page = self.doc.new_page(width=PAGE_W, height=PAGE_H)
        self.y = MARGIN_TOP
        if text:
            self.text_pages.append(self.page.number)

    def fresh(self) -> bool:
        return self.page is not None and self.y == MARGIN_TOP

    def place(self, text: str, *, fontname: str, fontsize: float, lineheight: float) -> bool:
        """Write ``text`` at the current position if it fits on this page."""
        if self.bottom - self.y < BODY_SIZE:
            return False
        rect = pymupdf.Rect(MARGIN_X, self.y, PAGE_W - MARGIN_X, self.bottom)
        left = self.page.insert_textbox(
            rect, text, fontname=fontname, fontsize=fontsize, lineheight=lineheight
        )
        if left < 0:
            return False
        self.y += rect.height - left
        return True

    def flow(self, text: str, *, fontname: str, fontsize: float, lineheight: float) -> None:
        """Write ``text`` here, or at the top of a new page if it does not fit."""
        if self.page is None or not self.place(
            text, fontname=fontname, fontsize=fontsize, lineheight=lineheight
        ):
            self.new_page()
            if not self.place(text, fontname=fontname, fontsize=fontsize, lineheight=lineheight):
                raise ValueError(f"block too large for one page: {text[:60]!r}")


def layout_heading(lay: Layout, block: Heading) -> None:
    size = HEADING_SIZES[block.level]
    if block.level == 1:
        if not lay.fresh():
            lay.new_page()
        lay.y += 12
    elif lay.page is None or lay.bottom - lay.y < 110:  # keep a heading with its text
        lay.new_page()
    else:
        lay.y += 8
    lay.flow(block.title, fontname=BOLD_FONT, fontsize=size, lineheight=1.2)
    lay.y += 6 if block.level > 1 else 10
    if block.bookmark:
        lay.toc.append([block.level, block.title, lay.page.number + 1])


def chinese_lines(paragraph: str, width: int = 33) -> list[str]:
    """Break Chinese text into lines of about ``width`` characters, no leading punctuation."""
    no_start = "，。：；、！？”）》"
    lines: list[str] = []
    rest = paragraph
    while rest:
        cut = min(width, len(rest))
        while cut < len(rest) and rest[cut] in no_start:
            cut += 1
        lines.append(rest[:cut])
        rest = rest[cut:]
    return lines


def layout_chinese(lay: Layout, block: ChinesePage) -> None:
    lay.new_page()
    lay.y += 12
    lay.flow(block.title, fontname=CJK_FONT, fontsize=15.0, lineheight=1.2)
    lay.toc.append([3, block.title, lay.page.number + 1])
    lay.y += 12
    for paragraph in block.paragraphs:
        text = "\n".join(chinese_lines(paragraph))
        lay.flow(text, fontname=CJK_FONT, fontsize=12.5, lineheight=1.55)
        lay.y += 10
    lay.page = None  # the next block starts on a new page


def scanned_picture() -> bytes:
    """PNG bytes of a 'scanned' page: grey text bars and a bar chart, all raster."""
    scratch = pymupdf.open()
    page = scratch.new_page(width=PAGE_W, height=PAGE_H)
    shape = page.new_shape()
    # Paper tone and a faint frame, as a scanner would show it.
    shape.draw_rect(page.rect)
    shape.finish(color=None, fill=(0.97, 0.96, 0.93))
    shape.draw_rect(pymupdf.Rect(30, 30, PAGE_W - 30, PAGE_H - 30))
    shape.finish(color=(0.85, 0.84, 0.8), width=1)
    # A heading bar and lines of "text" of varying length.
    shape.draw_rect(pymupdf.Rect(MARGIN_X, 90, 330, 104))
    shape.finish(color=None, fill=(0.25, 0.25, 0.25))
    y = 130.0
    for i in range(18):
        right = PAGE_W - MARGIN_X - (0 if i % 6 != 5 else 140) - (i * 37) % 23
        shape.draw_rect(pymupdf.Rect(MARGIN_X, y, right, y + 6))
        shape.finish(color=None, fill=(0.45, 0.45, 0.45))
        y += 15 if i % 6 != 5 else 27
    # A bar chart: budget used per call.
    base, left = 700.0, MARGIN_X + 30
    shape.draw_line((left - 10, base), (PAGE_W - MARGIN_X, base))
    shape.draw_line((left - 10, base), (left - 10, base - 190))
    shape.finish(color=(0.1, 0.1, 0.1), width=1.5)
    for i, height in enumerate((40, 165, 120, 75, 150, 60, 95)):
        x = left + i * 56
        shape.draw_rect(pymupdf.Rect(x, base - height, x + 34, base))
        shape.finish(color=(0.1, 0.1, 0.1), fill=(0.55, 0.55, 0.55), width=0.8)
    shape.commit()
    # Words inside the picture exist only as pixels once rasterised.
    page.insert_text((MARGIN_X, 760), "Figure 5.1  Budget used per call (scanned)", fontsize=12)
    pix = page.get_pixmap(dpi=60, colorspace=pymupdf.csGRAY, alpha=False)
    data: bytes = pix.tobytes("png")
    scratch.close()
    return data


def layout_image(lay: Layout, block: ImagePage) -> None:
    lay.new_page(text=False)
    lay.page.insert_image(lay.page.rect, stream=scanned_picture())
    lay.toc.append([3, block.outline_title, lay.page.number + 1])
    lay.page = None  # the next block starts on a new page


def layout_fine_print(lay: Layout, block: FinePrint) -> None:
    for line in block.lines:
        if lay.page is None or lay.y + 8 > lay.bottom:
            lay.new_page()
        lay.page.insert_text(
            (MARGIN_X - 48, lay.y + block.size), line, fontname=BODY_FONT, fontsize=block.size
        )
        lay.y += block.size * 2.2
    lay.y += PARA_GAP


def build(blocks: Sequence[Block]) -> Any:
    doc = pymupdf.open()
    lay = Layout(doc)
    for block in blocks:
        if isinstance(block, Heading):
            layout_heading(lay, block)
        elif isinstance(block, Para):
            lay.flow(block.text, fontname=BODY_FONT, fontsize=BODY_SIZE, lineheight=LINE_HEIGHT)
            lay.y += PARA_GAP
        elif isinstance(block, Mono):
            text = "\n".join(block.lines)
            lay.flow(text, fontname=MONO_FONT, fontsize=block.size, lineheight=1.35)
            lay.y += PARA_GAP
        elif isinstance(block, FinePrint):
            layout_fine_print(lay, block)
        elif isinstance(block, ChinesePage):
            layout_chinese(lay, block)
        else:
            layout_image(lay, block)
    add_title_page(doc)
    total = doc.page_count
    for index in lay.text_pages:  # indices before the title page was inserted
        footer(doc[index + 1], index + 2, total)
    doc.set_toc([[level, title, page + 1] for level, title, page in lay.toc])
    doc.set_metadata(
        {
            "title": TITLE,
            "author": AUTHOR,
            "subject": SUBJECT,
            "keywords": KEYWORDS,
            "creator": "tests/tools/make_sample.py",
            "producer": f"PyMuPDF {pymupdf.VersionBind}",
            "creationDate": FIXED_DATE,
            "modDate": FIXED_DATE,
        }
    )
    return doc


def add_title_page(doc: Any) -> None:
    page = doc.new_page(pno=0, width=PAGE_W, height=PAGE_H)
    page.insert_textbox(
        pymupdf.Rect(MARGIN_X, 250, PAGE_W - MARGIN_X, 330),
        TITLE,
        fontname=BOLD_FONT,
        fontsize=24,
        align=pymupdf.TEXT_ALIGN_CENTER,
    )
    page.insert_textbox(
        pymupdf.Rect(MARGIN_X, 340, PAGE_W - MARGIN_X, 380),
        "Budgets, maps, page ranges and search in the agent's eye view",
        fontname=BODY_FONT,
        fontsize=13,
        align=pymupdf.TEXT_ALIGN_CENTER,
    )
    page.insert_textbox(
        pymupdf.Rect(MARGIN_X + 40, 430, PAGE_W - MARGIN_X - 40, 600),
        "A sample document bundled with siftui. It is long enough that a read tool with "
        "the default budget of 100,000 characters answers with a map, it has a nested "
        "outline, and it contains a page in Chinese, a scanned page without text, a "
        "monospaced table and a few very long lines.",
        fontname=BODY_FONT,
        fontsize=11,
        lineheight=1.4,
        align=pymupdf.TEXT_ALIGN_CENTER,
    )
    page.insert_textbox(
        pymupdf.Rect(MARGIN_X, 700, PAGE_W - MARGIN_X, 740),
        "siftui · 2025",
        fontname=BODY_FONT,
        fontsize=10,
        align=pymupdf.TEXT_ALIGN_CENTER,
    )


def footer(page: Any, number: int, total: int) -> None:
    text = f"{TITLE} · page {number} of {total}"
    page.insert_textbox(
        pymupdf.Rect(MARGIN_X, PAGE_H - 50, PAGE_W - MARGIN_X, PAGE_H - 30),
        text,
        fontname=BODY_FONT,
        fontsize=FOOTER_SIZE,
        align=pymupdf.TEXT_ALIGN_CENTER,
    )


def main(argv: Sequence[str] | None = None) -> Path:
    """Write the sample to ``argv[0]`` (default: siftui/data/sample.pdf); return the path."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) > 1:
        raise SystemExit("usage: python tests/tools/make_sample.py [OUT]")
    out = Path(args[0]) if args else DEFAULT_OUT
    out.parent.mkdir(parents=True, exist_ok=True)
    doc = build(content())
    doc.subset_fonts()
    doc.save(out, garbage=4, deflate=True, clean=True, no_new_id=True)
    doc.close()
    return out


if __name__ == "__main__":
    written = main()
    print(f"wrote {written} ({written.stat().st_size} bytes)")
