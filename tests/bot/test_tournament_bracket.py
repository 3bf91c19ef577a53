"""What a knock-out's pinned message says and draws, from the service's values (pure views):
its rounds named as people name them in every language, a round by its name, never "of N",
the boards decided on time marked in the caption and on the bracket, and a bracket of more
than 16 places pinned a part at a time with 📋 buttons for the others."""

from __future__ import annotations

import pytest

from bot.i18n import LOCALES, create_i18n
from bot.model import (
    Terms,
    Tournament,
    TournamentEntrant,
    TournamentFormat,
    TournamentPairing,
    TournamentState,
    User,
)
from bot.services.tournament_values import TournamentOverview
from bot.views.common import translator
from bot.views.tournament_formats import picture, round_name
from bot.views.tournaments import (
    page_caption,
    page_total,
    pinned_caption,
    pinned_keyboard,
    pinned_page,
)
from render.tournament_inputs import (
    Bracket,
)
from render.tournament_layout import (
    bracket_pages,
)

I18N = create_i18n()


def _overview(
    players: int,
    rounds: int,
    current: int,
    *,
    format: TournamentFormat = TournamentFormat.KNOCKOUT,
    pairings: tuple[TournamentPairing, ...] = (),
    on_time: frozenset[tuple[int, int]] = frozenset(),
) -> TournamentOverview:
    tournament = Tournament(
        7, -5, 1, format, Terms(), 0, None, TournamentState.RUNNING, "en", 0.0,
        rounds=rounds, round=current,
    )  # fmt: skip
    ids = range(1, players + 1)
    return TournamentOverview(
        tournament,
        tuple(TournamentEntrant(7, n, 1500.0 - n) for n in ids),
        {n: User(n, f"p{n}", f"P{n}", "en") for n in ids},
        pairings,
        on_time=on_time,
    )


def test_a_knockouts_rounds_are_named_as_people_name_them_in_every_language() -> None:
    overview = _overview(64, 6, 1)
    names = {
        "en": ["Round of 64", "Round of 32", "Round of 16", "Quarter-final", "Semi-final", "Final"],
        "ru": ["1/32 финала", "1/16 финала", "1/8 финала", "Четвертьфинал", "Полуфинал", "Финал"],
    }
    for locale in LOCALES:
        _ = translator(I18N, locale)
        shown = [round_name(overview, n, _) for n in range(1, 7)]
        assert len(set(shown)) == 6 and all(shown), (locale, shown)
        if locale in names:
            assert shown == names[locale]
    swiss = _overview(7, 3, 2, format=TournamentFormat.SWISS)
    assert round_name(swiss, 2, translator(I18N, "en")) == "Round 2"


@pytest.mark.parametrize("locale", ["en", "ru"])
def test_the_caption_names_the_round_without_counting_a_knockouts(locale: str) -> None:
    """«Полуфинал», not «Полуфинал из 2»; a Swiss's round is counted: «Тур 2 из 3»."""
    _ = translator(I18N, locale)
    semi = pinned_caption(_overview(4, 2, 1), {}, _)
    assert f"<b>{round_name(_overview(4, 2, 1), 1, _)}</b>" in semi
    assert " of " not in semi and " из " not in semi
    swiss = pinned_caption(_overview(7, 3, 2, format=TournamentFormat.SWISS), {}, _)
    assert {"en": "Round 2 of 3", "ru": "Тур 2 из 3"}[locale] in swiss


def test_a_board_decided_on_time_is_marked_in_the_caption_and_on_the_bracket() -> None:
    boards = (
        TournamentPairing(7, 1, 0, 1, 4, game_id=10, winner_id=1, decided=True),
        TournamentPairing(7, 1, 1, 2, 3, game_id=11, winner_id=3, decided=True),
    )
    overview = _overview(4, 2, 1, pairings=boards, on_time=frozenset({(1, 1)}))
    _ = translator(I18N, "ru")
    lines = pinned_caption(overview, {}, _).splitlines()
    assert lines[-2].startswith("@p1 — @p4") and "по времени" not in lines[-2]
    assert lines[-1].startswith("@p2 — @p3") and lines[-1].endswith(" (по времени)")
    bracket = picture(overview, _)
    assert isinstance(bracket, Bracket)
    assert [m.note for m in bracket.rounds[0]] == ["", "по времени"]
    assert bracket.round_names == ("Полуфинал", "Финал")


def test_a_bracket_of_more_than_16_is_pinned_a_part_at_a_time() -> None:
    """32 places: three pictures; the pinned one is the first part while the first four
    rounds are played, then the final's page; 📋 buttons send the others."""
    _ = translator(I18N, "en")
    early = _overview(32, 5, 2)
    assert page_total(early) == 3 == len(bracket_pages(32))
    assert pinned_page(early) == 0
    keyboard = pinned_keyboard(early, _)
    assert keyboard is not None
    assert [b.text for row in keyboard.inline_keyboard for b in row] == [
        "📋 Part 2",
        "📋 Final rounds",
    ]
    assert "📋 The picture shows part 1 of 3 of the bracket" in pinned_caption(early, {}, _)
    final = _overview(32, 5, 5)
    assert pinned_page(final) == 2
    keyboard = pinned_keyboard(final, _)
    assert keyboard is not None
    assert [b.text for row in keyboard.inline_keyboard for b in row] == ["📋 Part 1", "📋 Part 2"]
    assert page_caption(final, 1, _).endswith("the bracket, part 2 of 3")
    small = _overview(16, 4, 1)
    assert page_total(small) == 1 and pinned_keyboard(small, _) is None
