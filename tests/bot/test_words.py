"""The words a new player reads, in every catalog: one form of address per language, the
computer called by its name (not "AI"), no cryptographic jargon on the board, "партия" for a
game and "матч" for a match, one word for chips."""

from __future__ import annotations

import re
from typing import Final

import pytest

from bot.engine import Dice, Game, Position, Side
from bot.i18n import LOCALES, create_i18n, read_catalog
from bot.model import StoredGame, Tally, User, computer_id
from bot.services import GameSnapshot
from bot.views.boards import board_view, caption
from bot.views.common import mention, translator
from tests.support.catalogs import forms, sources

I18N = create_i18n()
COMPUTER_WORDS: Final = {
    "en": "computer",
    "ru": "компьютер",
    "uk": "комп’ютер",
    "az": "kompüter",
    "hy": "համակարգիչ",
    "ka": "კომპიუტერი",
    "kk": "компьютер",
}
INFORMAL: Final = {
    "ru": r"\b(Привет|ты|тебя|тебе|твой|твоя|твои|нажми|отправь|выбери|сыграй|напиши)\b",
    "uk": r"\b(Привіт|ти|тебе|тобі|твій|твоя|твої|натисни|надішли|вибери|обери|зіграй)\b",
    "kk": r"(?<!\w)(Сәлем|сен|сені|сенің|саған)(?!\w)",
    "hy": r"(?<!\w)(Բարև,|դու|քեզ|քո)(?!\w)",
    "ka": r"(?<!\w)(გამარჯობა,|შენ|შენი)(?!\w)",
    "az": r"(?<!\w)(sən|sənin|səni|sənə)(?!\w)",
}
"""What speaks to the reader as "ты" where every other text says "вы": one form of address
per language, the polite one, the one the texts' imperatives use (Отправьте, Надішліть,
жіберіңіз, ուղարկեք, გაგზავნეთ, göndərin)."""
SEALED: Final = (
    "Fair dice {commitment}…: the dice are sealed now; check them after the game",
    "The dice are unsealed: check them with /verify {game}",
)
"""The board's lines about the fair dice: in plain words, no "seed"."""
SEED_WORDS: Final = {
    "ru": "зерн",
    "uk": "зерн",
    "az": "toxum",
    "hy": "սերմ",
    "ka": "თესლ",
    "kk": "тұқым",
}
CHIP_WORDS: Final = {"az": r"fiş(?!ka)", "hy": "չիպ", "ru": "жетон", "uk": "жетон", "kk": "жетон"}
"""A second word for chips, where a catalog had one (Azerbaijani fiş and fişka, Armenian
չիպ and ժետոն)."""


def _texts(locale: str) -> list[tuple[str, str]]:
    found = []
    for message in read_catalog(locale):
        if not message.id:
            continue
        found += [(sources(message)[-1], form) for form in forms(message)]
    return found


@pytest.mark.parametrize("locale", [locale for locale in LOCALES if locale != "en"])
def test_one_form_of_address(locale: str) -> None:
    """«Привет», then «Отправьте»: every text says the polite "you" of its language."""
    pattern = re.compile(INFORMAL[locale])
    assert [text for _, text in _texts(locale) if pattern.search(text)] == []


@pytest.mark.parametrize("locale", LOCALES)
def test_the_computer_is_called_by_its_name(locale: str) -> None:
    """The computer is «компьютер ★★★☆☆» in Russian (its stored name is "AI ★★★☆☆"): on the
    board's caption, in the picture's names, everywhere it is shown."""
    _ = translator(I18N, locale)
    computer = User(computer_id(3), None, "AI ★★★☆☆", None)
    alice = User(1, "alice", "Alice", "en")
    assert mention(computer, _) == f"{COMPUTER_WORDS[locale]} ★★★☆☆"
    game = Game.setup(Position.from_text("long w / 24:15 / 24:15")).with_dice(Dice(6, 5))
    stored = StoredGame(
        id=1,
        chat_id=0,
        white_id=alice.id,
        black_id=computer.id,
        game=game,
        input=(),
        last_turn=(),
        history=(),
        move_seconds=90,
        deadline=None,
        locale=locale,
        version=1,
        created_at=0.0,
        finished_at=None,
    )
    snapshot = GameSnapshot(stored, alice, computer, Tally())
    shown = caption(snapshot, _)
    assert f"🤖 {COMPUTER_WORDS[locale]} ★★★☆☆" in shown and "AI" not in shown
    assert board_view(snapshot, Side.WHITE, _).black_name == f"{COMPUTER_WORDS[locale]} ★★★☆☆"


@pytest.mark.parametrize("locale", [locale for locale in LOCALES if locale != "en"])
def test_the_fair_dice_in_plain_words(locale: str) -> None:
    """«зерно выбрано уже сейчас» on every board: the dice are sealed, to check after the
    game; the secret seed is named only where /verify explains it (in Russian and Ukrainian,
    as a secret key there too)."""
    catalog = read_catalog(locale)
    for msgid in SEALED:
        entry = catalog[msgid]
        assert entry is not None and all(SEED_WORDS[locale] not in f for f in forms(entry)), msgid
    if locale in ("ru", "uk"):
        assert [t for _, t in _texts(locale) if "зерн" in t or "обязательств" in t] == []


@pytest.mark.parametrize("locale", ["ru", "uk"])
def test_a_game_is_a_partiya_and_a_match_a_match(locale: str) -> None:
    """The terms: a game is «партия», a match «матч»; «игра» is play, never a game."""
    game = re.compile(r"\bgames?\b", re.IGNORECASE)
    play = re.compile(r"\bplay", re.IGNORECASE)
    word = re.compile(r"(?<!\w)(игр[аыуе]|гр[аиуі])(?!\w)", re.IGNORECASE)
    wrong = [
        text
        for source, text in _texts(locale)
        if game.search(source) and not play.search(source) and word.search(text)
    ]
    assert wrong == []
    for source, text in _texts(locale):
        if re.search(r"\bmatch\b", source, re.IGNORECASE):
            assert "матч" in text.lower(), text


@pytest.mark.parametrize("locale", sorted(CHIP_WORDS))
def test_one_word_for_chips(locale: str) -> None:
    pattern = re.compile(CHIP_WORDS[locale])
    assert [text for _, text in _texts(locale) if pattern.search(text)] == []


@pytest.mark.parametrize(("locale", "jargon"), [("ru", "эквити"), ("uk", "еквіті")])
def test_no_equity_jargon(locale: str, jargon: str) -> None:
    """«потеря эквити»: the analysis says what is lost in plain words (points of the game's
    expected result, the position's value)."""
    assert [t for _, t in _texts(locale) if jargon in t.lower()] == []
