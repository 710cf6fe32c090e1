"""Property tests over many seeded random games of every available edition.

For any seed, player count and decoy setting: the game ends with an outcome the edition allows,
replaying its log reproduces every event byte for byte, and no seat's view holds an event its
rules keep from it. That last check holds each view against the edition's own reveals table
(``Edition.reveals``), not against the audience filter that builds the view, so it can fail
(``tests/test_secrecy.py`` shows it failing on broken rules). Like PettingZoo's api_test, but
for our engine contract.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import assume, given
from hypothesis import strategies as st

from mafioso.agents.play import play_game
from mafioso.engine import GM, Game, SetupError, find_edition
from tests.editions_on_v2 import ON_V2
from tests.secrecy_checks import disclosures

EDITIONS = ON_V2


@st.composite
def games(draw: st.DrawFn) -> tuple[str, int, int, bool, str, dict[str, Any]]:
    edition = find_edition(draw(st.sampled_from(EDITIONS)))
    players = draw(st.integers(edition.min_players, edition.max_players))
    seed = draw(st.integers(0, 2**32 - 1))
    decoys = draw(st.booleans())
    bots = draw(st.sampled_from(["random", "heuristic"]))
    options: dict[str, Any] = {}
    for option in edition.options:  # modes and variants with a closed set of values
        if draw(st.booleans()):
            if option.choices:
                options[option.name] = draw(st.sampled_from(option.choices))
            elif type(option.default) is bool:
                options[option.name] = draw(st.booleans())
    return edition.id, players, seed, decoys, bots, options


@given(games())
def test_games_end_replay_exactly_and_keep_secrets(case: tuple[str, int, int, bool, str, dict[str, Any]]) -> None:
    edition_id, players, seed, decoys, bots, options = case
    try:
        game = play_game(edition_id, players, seed=seed, bots=bots, decoys=decoys, options=options)
    except SetupError:
        assume(False)  # a mode that this player count does not allow (e.g. Yakuza under 12)
        raise
    edition = game.edition
    outcome = game.outcome
    assert outcome is not None
    allowed = set(edition.teams) | set(edition.roles)
    assert set(outcome.winners) <= allowed, outcome
    assert set(outcome.seats) <= set(range(1, game.players + 1))
    assert game.events[-1].kind == "game.over"

    again = Game.replay(json.loads(json.dumps(game.log())))
    assert again.digest() == game.digest()

    public = sum(1 for event in game.events if event.audience.public)
    for seat in range(1, game.players + 1):
        view = game.view(seat)
        assert not disclosures(game, seat, view.events)
        assert [event.index for event in view.events] == list(range(len(view.events)))  # no gaps that count secrets
        assert len(view.events) >= public
    assert len(game.view(GM).events) == len(game.events)


@given(st.sampled_from(EDITIONS), st.integers(0, 10_000))
def test_only_living_or_departing_seats_and_the_facilitator_are_prompted(edition_id: str, seed: int) -> None:
    edition = find_edition(edition_id)
    game = Game(edition_id, edition.min_players, seed=seed, decoys=True)
    steps = 0
    while not game.is_over() and steps < 60:
        for prompt in game.awaiting():
            assert 1 <= prompt.seat <= game.players
            if prompt.default is not None:
                assert prompt.check(prompt.default) == prompt.default  # a neutral default is legal
            if game.is_pending(prompt.id):
                decision = game.timeout(prompt.seat, prompt.id)  # a pass, the default, or a fair draw
                assert prompt.check(decision.choice) == decision.choice
                assert decision.choice is None or prompt.optional or prompt.default in (None, decision.choice)
                steps += 1
