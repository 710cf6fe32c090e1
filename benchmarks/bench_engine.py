"""Engine speed: full bot games per second and decisions per second, on one core.

Usage: ``python benchmarks/bench_engine.py [--games N] [--edition ID ...] [--bots random|heuristic]
[--decoys] [--observe] [--json]``. Games are played in this process only (one core), seeds 0..N-1, the
same loop ``mafioso simulate`` uses. Rates are per second of this process's CPU time
(``time.process_time``), which is what "per core" means and does not count time the machine
spent on other processes; wall-clock rates are printed beside them. The best of ``--repeat``
runs is reported, to damp noise. Whether the modules imported are compiled or pure Python is
printed with every rate (``MAFIOSO_COMPILE=1 pip install .``; ``compare_engine.py --compiled``).

``--observe`` measures what seat knowledge costs: the same random games are played four times
in turn, by plain random bots, by random bots whose seats' observers are kept up to date but
never read (``kept``), by random bots that read their seat's knowledge from its observer (role,
known teams, who is out, who is in play) before every decision (``known``), and by random bots
that also take every event they saw, one call of ``observe`` each (``read``); the costs over the
plain games are printed. Each game's teardown is timed with it. ``--best-of K`` plays each game K
times each way, in turn, and counts its shortest time, which the load of other processes moves
far less than a sum does. The difference between the last two is the bot's own work, one Python
call per event per seat, which no observer can spare it: real bots declare the few kinds they read (``Bot.listens``).
``--observe --parts`` splits a known game's extra time into making the observers (and letting them
go), handing events to them, folding the events, attaching the bots and their reads, in µs a game,
each part measured by playing the games with it and without it.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import time
from typing import Any

from mafioso.agents.base import Bot, bot_generator, make_bots, random_choice
from mafioso.agents.play import play_game, run_bots
from mafioso.compiled import path_name
from mafioso.engine import Choice, Event, Game, Prompt, available_ids, find_edition

PLAIN, KEPT, KNOWN, READ = "plain", "kept", "known", "read"
WATCHES = (PLAIN, KEPT, KNOWN, READ)


class KnowingBot(Bot):
    """A random bot that reads what its seat knows before every decision, as a real bot would.
    (A subclass of ``Bot``, which wants events, rather than of ``RandomBot``: compiled, a class
    attribute set again in an interpreted subclass is not seen by compiled code.)"""

    def choose(self, prompt: Prompt) -> Choice:
        knows = self.knows
        self.facts = (knows.role, len(knows.known_teams), len(knows.out), len(knows.living))
        return random_choice(prompt, self.rng)  # (as RandomBot.choose does: no extra call to time)


class ObservingBot(KnowingBot):
    """The same, which also takes in every event its seat saw (``listens`` is every kind)."""

    def observe(self, event: Event) -> None:
        self.last = event.kind


def observed_bench(edition: str, games: int, players: int | None, pairs: int, best_of: int = 1) -> dict[str, Any]:
    """Random games plain, with observers kept, and with observers read, in turn; the medians
    over ``pairs`` runs of their CPU times over the plain games'.

    With ``best_of`` above 1, each game is played that many times in each way, in turn, and its
    shortest time counts (``time.perf_counter``, finer than the process clock at this scale): the
    other engineers' work on a shared machine only ever adds time to a game, so the shortest of a
    few is the steadiest figure of what the game itself costs.
    """
    ratios: dict[str, list[float]] = {watch: [] for watch in WATCHES[1:]}
    clock = time.process_time if best_of <= 1 else time.perf_counter
    for _ in range(pairs):
        spent = dict.fromkeys(WATCHES, 0.0)
        for seed in range(games):
            best = dict.fromkeys(WATCHES, float("inf"))
            for _ in range(max(best_of, 1)):
                for watch in WATCHES:
                    started = clock()
                    _random_game(edition, players, seed, watch)
                    best[watch] = min(best[watch], clock() - started)
            for watch in WATCHES:
                spent[watch] += best[watch]
        for watch, kept in ratios.items():
            kept.append(spent[watch] / spent[PLAIN])
    return {"observer_cost": statistics.median(ratios[READ]) - 1,
            "knowledge_read_cost": statistics.median(ratios[KNOWN]) - 1,
            "observers_kept_cost": statistics.median(ratios[KEPT]) - 1, "pairs": pairs}


PARTS = ("plain", "made", "handed", KEPT, "attached", KNOWN)
"""The ways ``--parts`` plays each game, each adding one part of a known game's extra work to
the one before (see :func:`_part_game`)."""


def observed_parts(edition: str, games: int, players: int | None, tries: int = 5) -> dict[str, float]:
    """Where a ``known`` game's extra time goes, in µs a game: each game is played six ways in turn
    (:data:`PARTS`), each adding one part to the way before, and each way's shortest of ``tries``
    timings is summed over seeds 0..games-1. Every part is a measured difference, none the
    remainder of the others:

    - making: every seat's observer made (the events so far folded) and let go at once;
    - handing out: the observers kept, each event looked at for them, but nothing folded, and let
      go when the game ends;
    - folding: what the events teach the observers, as the game goes;
    - attaching: bots attached to the observers (``Bot.attach``), reading nothing;
    - reading: the bots reading role, known teams, out and living before every decision.
    """
    spent = dict.fromkeys(PARTS, 0.0)
    counts = {"events": 0.0, "decisions": 0.0}
    for seed in range(games):
        best = dict.fromkeys(PARTS, float("inf"))
        for _ in range(tries):
            for way in PARTS:
                started = time.perf_counter()
                _part_game(edition, players, seed, way)
                best[way] = min(best[way], time.perf_counter() - started)
        for way in PARTS:
            spent[way] += best[way]
        done = play_game(edition, players, seed=seed, bots="random", decoys=False)
        counts["events"] += len(done.events)
        counts["decisions"] += len(done.decisions)
    each = {way: seconds / games * 1e6 for way, seconds in spent.items()}
    parts = {"making": each["made"] - each["plain"], "handing": each["handed"] - each["made"],
             "folding": each[KEPT] - each["handed"], "attaching": each["attached"] - each[KEPT],
             "reading": each[KNOWN] - each["attached"]}
    return {"plain": each["plain"], "known": each[KNOWN], **parts, **{name: n / games for name, n in counts.items()}}


class AttachedBot(Bot):
    """A random bot attached to its seat's observer that reads nothing from it (``--parts``)."""

    def choose(self, prompt: Prompt) -> Choice:
        return random_choice(prompt, self.rng)


def _bots(game: Game, seed: int, kind: type[Bot] | None) -> dict[int, Bot]:
    """The random bots of a game: ``make_bots``'s, or bots of ``kind`` sharing the random bots'
    own generator (one set of bots, the same draws), so that only what ``kind`` adds is timed."""
    if kind is None:
        return make_bots("random", game.edition, game.options, game.players, seed)
    rng = bot_generator(seed)
    return {seat: kind(seat, game.edition, game.options, game.players, rng) for seat in range(1, game.players + 1)}


def _part_game(edition: str, players: int | None, seed: int, way: str) -> None:
    """One random game played one of the ways of :data:`PARTS` (teardown timed with it)."""
    game = Game(edition, players, seed=seed, decoys=False)
    kinds: dict[str, type[Bot]] = {"attached": AttachedBot, KNOWN: KnowingBot}
    bots = _bots(game, seed, kinds.get(way))
    if way in ("made", "handed", KEPT):
        game.observers(list(bots))
        if way == "made":
            game.state.release()  # made, then let go at once: nothing handed to them
        elif way == "handed":
            game.state._fold_table = {}  # handed every event, folding none
    run_bots(game, bots)


def _random_game(edition: str, players: int | None, seed: int, watch: str) -> None:
    """One random game: plain, with every seat's observer kept (``kept``), or played by
    observing bots (``read``). Its teardown is timed with it, since the game is dropped when
    this returns (not while the next game is timed)."""
    game = Game(edition, players, seed=seed, decoys=False)
    kinds: dict[str, type[Bot]] = {KNOWN: KnowingBot, READ: ObservingBot}
    bots = _bots(game, seed, kinds.get(watch))
    if watch == KEPT:
        game.observers(list(bots))
    run_bots(game, bots)


def bench(edition: str, games: int, bots: str, decoys: bool, players: int | None) -> dict[str, float]:
    decisions = 0
    started, cpu_started = time.perf_counter(), time.process_time()
    for seed in range(games):
        game = play_game(edition, players, seed=seed, bots=bots, decoys=decoys)
        decisions += len(game.decisions)
    seconds = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    return {"games_per_second": games / cpu, "decisions_per_second": decisions / cpu,
            "decisions_per_game": decisions / games, "cpu_seconds": cpu,
            "wall_games_per_second": games / seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--edition", nargs="*", default=None)
    parser.add_argument("--bots", default="random")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--decoys", action="store_true")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--observe", action="store_true", help="the cost of reading seat observers")
    parser.add_argument("--parts", action="store_true",
                        help="with --observe: where the known games' extra time goes (making, handing out, folding, attaching, reading)")
    parser.add_argument("--best-of", type=int, default=1,
                        help="with --observe: play each game this many times each way and count its shortest time")
    parser.add_argument("--gc-threshold", type=int, default=None,
                        help="the garbage collector's first threshold (default 700), set before the games")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.gc_threshold:
        gc.set_threshold(args.gc_threshold, *gc.get_threshold()[1:])
    if args.observe and args.parts:
        for edition in args.edition or available_ids():
            part = observed_parts(edition, args.games, args.players)
            plain = part["plain"]
            print(f"{edition:9} plain {plain:.0f} µs, known {part['known']:.0f} µs ({part['known'] / plain - 1:+.1%}): "
                  + ", ".join(f"{name} {part[name]:.1f} µs ({part[name] / plain:.1%})"
                              for name in ("making", "handing", "folding", "attaching", "reading"))
                  + f"; {part['events']:.0f} events, {part['decisions']:.0f} decisions a game")
        return
    if args.observe:
        costs = {e: observed_bench(e, args.games, args.players, args.repeat, args.best_of)
                 for e in args.edition or available_ids()}
        for edition, cost in costs.items():
            if not args.json:
                print(f"{edition:9} observers kept up to date, unread: {cost['observers_kept_cost']:+.1%}; "
                      f"the seat's knowledge read at every decision: {cost['knowledge_read_cost']:+.1%}; "
                      f"and every event taken through observe: {cost['observer_cost']:+.1%}")
        if args.json:
            print(json.dumps(costs, indent=2))
        return
    results = {}
    for edition in args.edition or available_ids():
        players = args.players or find_edition(edition).default_players()
        runs = [bench(edition, args.games, args.bots, args.decoys, players) for _ in range(args.repeat)]
        best = max(runs, key=lambda r: r["games_per_second"])
        results[edition] = {"players": players, "bots": args.bots, "decoys": args.decoys, "games": args.games,
                            "path": path_name(), **best}
        if not args.json:
            print(f"{edition:9} {players:2} players {args.bots:9} bots ({path_name()}): "
                  f"{best['games_per_second']:8.0f} games/s "
                  f"{best['decisions_per_second']:9.0f} decisions/s ({best['decisions_per_game']:.0f} per game; "
                  f"wall clock {best['wall_games_per_second']:.0f} games/s)")
    if args.json:
        print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
