"""Hand votes entered as counts (issue 12, item 3): where the rules use only the number."""

from __future__ import annotations

import random

import pytest

from mafioso.console import BadEntry, Console, OutOfOrder

from .play import act, table


def to_vote(console: Console, edition_kind: str = "count", seed: int = 0) -> None:
    """Play until a hand vote is on screen (one entered by count, or one kept per voter)."""
    rng = random.Random(seed)
    for _ in range(3000):
        step = console.step()
        if (step.count_max if edition_kind == "count" else step.count_note):
            return
        act(console, rng)
    raise AssertionError("no hand vote came")


def test_sport_vote_by_count_gives_the_hands_and_names_nobody() -> None:
    console = table("sport")
    to_vote(console)
    step = console.step()
    nominee = step.asks[0].question
    after = console.count(2)
    assert any(": 2." in line for line in after.announce), after.announce
    counted = next(line for line in after.announce if ": 2" in line)
    assert "from" not in counted and "Anna" in nominee
    assert console.describe(console.entries[-1]) == "Hands against Anna: 2"
    assert not any("vote" in line for card in console.grimoire() for line in card["did"])


@pytest.mark.parametrize("hands", [-1, 11, True, "3"])
def test_bad_counts_are_refused_and_change_nothing(hands: object) -> None:
    console = table("sport")
    to_vote(console)
    before = (list(console.entries), len(console.game.events))
    step = console.step()
    with pytest.raises(BadEntry) as refused:
        console.enter({"do": "count", "hands": hands, "prompts": [a.prompt for a in step.asks]})
    assert refused.value.say("en")
    assert "{" not in refused.value.say("ru")
    assert (list(console.entries), len(console.game.events)) == before


def test_too_many_hands_says_how_many_vote() -> None:
    console = table("sport")
    to_vote(console)
    with pytest.raises(BadEntry) as refused:
        console.count(console.step().count_max + 1)
    assert refused.value.say("en") == "More hands (11) than players voting now (10)."


def test_a_count_survives_a_rebuild_and_undo() -> None:
    console = table("sport")
    to_vote(console)
    console.count(3)
    rebuilt = Console.from_json(console.to_json())
    assert rebuilt.entries == console.entries and rebuilt.story() == console.story()
    console.undo(len(console.entries) - 1, console.revision)
    assert console.step().count_max == 10


def test_count_when_no_vote_is_on_screen_is_out_of_order() -> None:
    console = table("sport")
    with pytest.raises(OutOfOrder):
        console.enter({"do": "count", "hands": 1, "prompts": []})


def test_vampires_votes_stay_per_voter_and_say_why() -> None:
    console = table("vampires")
    to_vote(console, "note")
    step = console.step()
    assert step.count_max == 0 and "Queen" in step.count_note
    with pytest.raises(OutOfOrder):
        console.enter({"do": "count", "hands": 1, "prompts": [a.prompt for a in step.asks]})


def played_by_counts(seed: int) -> Console:
    """A sport game where every vote the rules count is entered as a count, to its end."""
    from mafioso.console import Setup

    from .play import names

    console = Console(Setup("sport", names("sport"), seed=seed, options={"best_move": True}))
    rng = random.Random(seed)
    for _ in range(3000):
        step = console.step()
        if step.kind == "end":
            return console
        if step.count_max:
            console.count(rng.randint(0, step.count_max))
        else:
            act(console, rng)
    raise AssertionError("the game did not end")


def counted_game() -> Console:
    """The first seed whose game has votes entered by count, a re-vote or a lift among them if any."""
    for seed in range(1, 40):
        console = played_by_counts(seed)
        if len(console.counts) >= 2:
            return console
    raise AssertionError("no game with two counted votes")


def test_a_count_is_a_count_in_the_log_and_the_protocol() -> None:
    """The engine records a hand per seat, so a count has stand-in voters there; the log and the
    protocol carry the count as a number, and nothing shows or counts the stand-ins as votes."""
    import json

    from mafioso.desk import formats
    from mafioso.desk.errors import FormatError
    from mafioso.desk.sheet import render_html
    from mafioso.desk.stats import vote_stats
    from mafioso.engine import Game
    from mafioso.server.console import finished_protocol

    console = counted_game()
    log = console.log()
    assert log["_counts"] == console.counts and all(type(c["hands"]) is int for c in log["_counts"])
    assert Game.replay(log).is_over(), "the log still replays (a field starting with _ is a comment)"
    assert Console.from_json(console.to_json()).counts == console.counts, "rebuilt from the store, the counts stay"

    proto = finished_protocol(console)
    marked = [(n, c) for n, d in proto.days.items() for c in d.counted]
    assert len(marked) == len(console.counts)
    raw = proto.to_json()
    assert all("counted" in raw["days"][str(n)] for n, _ in marked)
    again, problems = formats.load_any(json.dumps(raw))
    assert not problems and again.to_json()["days"] == raw["days"], "checked by replay, the counts kept"
    from_log, problems = formats.load_any(json.dumps(log))
    assert not problems and [d.counted for d in from_log.days.values()] == [d.counted for d in proto.days.values()]

    stats = vote_stats(proto)
    counted_hands = sum(c.hands for _, c in marked if c.nominee is not None)
    all_hands = sum(len(votes) for d in proto.days.values() for votes in d.votes)
    assert sum(row["votes"] for row in stats.values()) == all_hands - counted_hands, "stand-ins are nobody's votes"
    sheet = render_html(proto)
    assert "a count: who raised a hand is not known" in sheet
    with pytest.raises(FormatError) as refused:
        formats.write(proto, "mafiaratings")
    assert refused.value.field is not None and refused.value.field.endswith(".counted")
    assert "count of hands" in str(refused.value)

    number, count = next((n, c) for n, c in marked if c.nominee is not None)
    raw["days"][str(number)]["counted"][0]["hands"] = (count.hands + 1) % 11
    _, problems = formats.load_any(json.dumps(raw))
    given = (count.hands + 1) % 11
    words = "one hand" if given == 1 else f"{given} hands"
    assert any(f"is given as {words}, but the game counts" in str(p) for p in problems), \
        "a count that is not the game's is reported"


def mixed_game_by_counts(seed: int) -> tuple[Console, list[str], int]:
    """A sport table with phones at seats 2, 5 and 8 whose votes are entered as counts while the
    phones still have to vote (they vote yes): the game to its end, its public lines, and how many
    counts a phone's hand joined."""
    from mafioso.console import Setup
    from mafioso.server.console import phone_state

    from .play import names

    console = Console(Setup("sport", names("sport"), seed=seed, phones=frozenset({2, 5, 8})))
    rng, lines, joined = random.Random(seed), [], 0
    for _ in range(3000):
        step = console.step()
        lines += step.announce
        if step.kind == "end":
            return console, lines, joined
        phones = [(seat, p) for seat in (2, 5, 8) for p in phone_state(console, seat)["prompts"]]
        if step.count_max:
            console.count(rng.randint(0, step.count_max))
            joined += 1 if [p for _, p in phones if "yes" in [o["value"] for o in p["options"]]] else 0
        elif phones:
            seat, prompt = phones[0]
            values = [o["value"] for o in prompt["options"]]
            choice = "yes" if "yes" in values else (values[:max(1, prompt.get("min", 0))]
                                                    if prompt["kind"] == "choose_many" else
                                                    None if prompt["kind"] == "speech" or not values else rng.choice(values))
            console.enter({"do": "answer", "seat": seat, "prompt": prompt["id"], "choice": choice, "phone": True})
        else:
            act(console, rng)
    raise AssertionError("the game did not end")


def test_a_count_with_phones_voting_after_it_names_nobody_and_is_recordable() -> None:
    """Issue 12: a count entered while a phone seat has yet to vote; the phone's hand comes later.
    The result line gives the number only, and the finished game's record holds the vote's hands."""
    import json

    from mafioso.desk import formats
    from mafioso.server.console import finished_protocol

    console, lines, joined = next((g for g in map(mixed_game_by_counts, range(1, 30)) if g[2] >= 2), (None, [], 0))
    assert console is not None and joined >= 2
    votes = [line for line in lines if line.startswith("Votes against")]  # every vote is a count here
    assert votes and not [line for line in votes if "from" in line], votes
    proto = finished_protocol(console)
    _, problems = formats.load_any(json.dumps(proto.to_json()))
    assert not problems, problems
    _, problems = formats.load_any(json.dumps(console.log()))
    assert not problems, problems
