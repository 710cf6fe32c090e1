"""Tournaments: players, rounds, tables, seating by round, games, standings.

A :class:`Tournament` is data: its players, number of rounds and tables, its scoring system (the
YAML text itself, so a score is always reproducible with the system and version that made it),
the event class of its ratings, the stage of each round (``main``, ``second_round``, ``final``, for
round multipliers) and its pair policies. Games are protocols stored by round and table; a game
may be cancelled or corrected (a new version replaces it). Standings are computed from the games
every time they are asked for, so a corrected game or a new scoring system changes every score
it affects and nothing else.

Seating (:func:`seating`): when the players fill tables of ten, each player gets seat
``(a + r x b) mod 10`` in round r, where ``a`` is the player's place in their block of ten and
``b`` (1, 3, 7 or 9, by block) is prime to ten, so nobody sits in the same seat twice in ten
rounds and each seat number has exactly one player per table. Otherwise some players sit out
each round (**byes**): those who have played most, so the numbers of games differ by at most
one. Seats are matched to the players by augmenting paths, those who must play first, then
those who may (by lot among them, the ones who can take a seat they have not had first), allowing
a seat someone has had only for whom no matching without it exists: nobody repeats a seat while
they have played fewer than ten games (checked from 11 to 103 players). Each seat number's
players are then spread over the tables by an optimal assignment (:func:`assignment`, the
Hungarian method) against the pair policies (mafiaratings' four: separate, avoid, welcome,
nothing; teammates count as ``separate``) and against meeting the same players again. The order
of the seat numbers is drawn from the seed, so a seating is reproducible, and redrawn while a
``separate`` pair would still meet.

Team standings (:func:`team_standings`) sum the members' points; ratings (:func:`ratings`,
:func:`ratings_across`) are Elo folds over the counted games in order.
"""

from __future__ import annotations

import csv
import hashlib
import hmac
import io
import math
import random
import secrets
from dataclasses import dataclass, field
from typing import Any

from mafioso.desk import fields as f
from mafioso.desk.errors import TournamentError
from mafioso.desk.normaliser import Played, factor
from mafioso.desk.ratings import RatedGame, rate
from mafioso.desk.record import Protocol
from mafioso.desk.scoring import GROUPS, System, load
from mafioso.desk.stats import vote_stats
from mafioso.i18n import N_

PAIR_POLICIES = {"separate": 1000.0, "avoid": 20.0, "welcome": -20.0, "nothing": 0.0}
"""Cost of seating a pair at one table, by policy (on top of the cost of meeting again)."""
EVENT_CLASSES = ("club", "tournament", "elite")
STEPS = (1, 3, 7, 9)


@dataclass
class Tournament:
    """A tournament's settings (see the module docstring)."""

    name: str
    players: list[str]
    rounds: int
    system: System
    event_class: str = "tournament"
    stages: dict[int, str] = field(default_factory=dict)
    pairs: list[tuple[str, str, str]] = field(default_factory=list)
    seed: int = 0
    cards: bool = True
    """Whether its rules have yellow and red cards (the desk refuses cards otherwise)."""
    judge_pass: str = ""
    """The SHA-256 of the judges' pass (``""``: none yet): who holds it may record games from the
    tournament page. Only the digest is stored, so a copy of the database does not give it."""
    teams: dict[str, list[str]] = field(default_factory=dict)
    """A team tournament's teams: team name -> its players. Teammates are kept apart at the
    tables (as a ``separate`` pair policy) and the team standings sum their members' points."""

    @property
    def tables(self) -> int:
        return len(self.players) // 10

    @property
    def byes(self) -> int:
        """How many players sit out each round (those beyond the last full table)."""
        return len(self.players) % 10

    def stage(self, round_: int) -> str:
        return self.stages.get(round_, "main")

    def check(self) -> None:
        """Refuse settings no tournament can be played with, naming the setting."""
        if len(self.players) < 10:
            raise TournamentError(N_("{count} players do not fill a table of ten"), "players", count=len(self.players))
        if len(set(self.players)) != len(self.players):
            twice = sorted({p for p in self.players if self.players.count(p) > 1})[0]
            raise TournamentError(N_("{name!r} is listed twice"), "players", name=twice)
        if not 1 <= self.rounds <= 100:
            raise TournamentError(N_("must be from 1 to 100, not {rounds}"), "rounds", rounds=self.rounds)
        if self.event_class not in EVENT_CLASSES:
            raise TournamentError(N_("must be one of {known}, not {given!r}"), "event_class", known=", ".join(EVENT_CLASSES),
                                  given=self.event_class)
        for a, b, policy in self.pairs:
            for name in (a, b):
                if name not in self.players:
                    raise TournamentError(N_("{name!r} is not a player of the tournament"), "pairs", name=name)
            if policy not in PAIR_POLICIES:
                raise TournamentError(N_("must be one of {known}, not {given!r}"), "pairs", known=", ".join(PAIR_POLICIES),
                                      given=policy)
        self._check_teams()

    def _check_teams(self) -> None:
        where: dict[str, str] = {}
        for team, members in self.teams.items():
            if not team.strip():
                raise TournamentError(N_("a team needs a name"), "teams")
            for name in members:
                if name not in self.players:
                    raise TournamentError(N_("{name!r} of team {team!r} is not a player of the tournament"), "teams",
                                          name=name, team=team)
                if name in where:
                    raise TournamentError(N_("{name!r} is in two teams, {first!r} and {team!r}"), "teams",
                                          name=name, first=where[name], team=team)
                where[name] = team

    def new_pass(self) -> str:
        """A fresh judges' pass (the old one stops working); only its digest is kept."""
        given = secrets.token_urlsafe(12)
        self.judge_pass = hashlib.sha256(given.encode()).hexdigest()
        return given

    def pass_ok(self, given: str) -> bool:
        """Whether ``given`` is the judges' pass (compared in constant time; never without one)."""
        digest = hashlib.sha256(given.encode("utf-8", "replace")).hexdigest()
        return bool(self.judge_pass) and hmac.compare_digest(digest, self.judge_pass)

    def team_of(self, player: str) -> str:
        """The player's team ("" when the tournament has no teams or the player none)."""
        return next((team for team, members in self.teams.items() if player in members), "")

    def policies(self) -> dict[frozenset[str], float]:
        """The cost of seating each pair together: pair policies, and teammates kept apart."""
        out = {frozenset((a, b)): PAIR_POLICIES["separate"] for members in self.teams.values()
               for i, a in enumerate(members) for b in members[i + 1:]}
        out.update({frozenset((a, b)): PAIR_POLICIES[p] for a, b, p in self.pairs})
        return out

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "players": self.players, "rounds": self.rounds, "system": self.system.source,
                "event_class": self.event_class, "stages": {str(k): v for k, v in self.stages.items()},
                "pairs": [list(p) for p in self.pairs], "seed": self.seed, "cards": self.cards, "teams": self.teams,
                "judge_pass": self.judge_pass}

    @classmethod
    def from_json(cls, raw: Any) -> Tournament:
        data = f.obj(raw, "tournament")
        return cls(f.text(data.get("name"), "name", 200), [f.text(p, "players", 200) for p in f.lst(data.get("players"), "players", 10000)],
                   f.integer(data.get("rounds"), "rounds", 1, 100), load(f.text(data.get("system"), "system", 256 * 1024)),
                   f.text(data.get("event_class", "tournament"), "event_class", 20),
                   {int(k): f.text(v, "stages", 40) for k, v in f.obj(data.get("stages", {}), "stages").items()},
                   [(p[0], p[1], p[2]) for p in f.lst(data.get("pairs", []), "pairs", 10000)],
                   f.integer(data.get("seed", 0), "seed", 0, 2**63), bool(data.get("cards", True)),
                   f.text(data.get("judge_pass", ""), "judge_pass", 64),
                   {f.text(team, "teams", 200): [f.text(p, "teams", 200) for p in f.lst(members, "teams", 10000)]
                    for team, members in f.obj(data.get("teams", {}), "teams").items()})


def seat_round(tournament: Tournament, round_: int, met: dict[frozenset[str], int],
               seats: dict[str, list[int]] | None = None) -> list[list[str]]:
    """Round ``round_``'s tables, each a list of ten players in seat order. ``met`` counts the
    meetings of earlier rounds and ``seats`` each player's earlier seats (0-9); both are updated."""
    seats = {name: [] for name in tournament.players} if seats is None else seats
    if tournament.byes:
        by_seat = _matched_seats(tournament, round_, seats)
    else:
        by_seat = {seat: [] for seat in range(10)}
        for index, name in enumerate(tournament.players):
            step = STEPS[(index // 10) % len(STEPS)]
            by_seat[(index % 10 + (round_ - 1) * step) % 10].append(name)
    result = _fill_tables(tournament, round_, by_seat, met)
    for table in result:
        for seat, name in enumerate(table):
            seats[name].append(seat)
        for i, a in enumerate(table):
            for b in table[i + 1:]:
                key = frozenset((a, b))
                met[key] = met.get(key, 0) + 1
    return result


def _fill_tables(tournament: Tournament, round_: int, by_seat: dict[int, list[str]],
                 met: dict[frozenset[str], int]) -> list[list[str]]:
    """Spread each seat number's players over the tables, against the pair policies and repeats.

    Seat numbers are taken one after another, each spread by an optimal assignment against the
    players already placed; the order of seat numbers is drawn, and redrawn (up to
    :data:`TRIES` times) while a ``separate`` pair or two teammates still share a table.
    """
    policy = tournament.policies()
    best: tuple[float, list[list[str]]] | None = None
    for attempt in range(TRIES):
        rng = random.Random(f"{tournament.seed}/seating/{round_}" + (f"/{attempt}" if attempt else ""))
        layout = _spread(tournament.tables, by_seat, met, policy, rng)
        clash = sum(policy.get(frozenset((a, b)), 0.0) >= PAIR_POLICIES["separate"]
                    for table in layout for i, a in enumerate(table) for b in table[i + 1:])
        if best is None or clash < best[0]:
            best = (clash, layout)
        if not clash:
            break
    assert best is not None
    return best[1]


TRIES = 12
"""Orders of seat numbers tried before a seating that must break a ``separate`` is accepted."""


def _spread(tables: int, by_seat: dict[int, list[str]], met: dict[frozenset[str], int],
            policy: dict[frozenset[str], float], rng: random.Random) -> list[list[str]]:
    layout: list[list[str | None]] = [[None] * 10 for _ in range(tables)]
    for seat in rng.sample(range(10), 10):
        group = list(by_seat[seat])
        rng.shuffle(group)
        costs = [[_cost(name, layout[t], met, policy) + rng.random() * 1e-3 for t in range(tables)] for name in group]
        for name, table in zip(group, assignment(costs), strict=True):
            layout[table][seat] = name
    return [[name for name in table if name is not None] for table in layout]


def assignment(cost: list[list[float]]) -> list[int]:
    """The column of each row of a square cost matrix that makes the total cost least (the
    Hungarian method with row and column potentials, O(n^3): ten tables take microseconds)."""
    n = len(cost)
    row_pot, col_pot = [0.0] * (n + 1), [0.0] * (n + 1)
    owner, came = [0] * (n + 1), [0] * (n + 1)  # owner[column]: its row (1-based; column 0 is a sentinel)
    for row in range(1, n + 1):
        owner[0], column = row, 0
        slack, done = [math.inf] * (n + 1), [False] * (n + 1)
        while owner[column]:
            done[column] = True
            here, delta, nxt = owner[column], math.inf, 0
            for j in range(1, n + 1):
                if not done[j]:
                    reduced = cost[here - 1][j - 1] - row_pot[here] - col_pot[j]
                    if reduced < slack[j]:
                        slack[j], came[j] = reduced, column
                    if slack[j] < delta:
                        delta, nxt = slack[j], j
            for j in range(n + 1):
                if done[j]:
                    row_pot[owner[j]] += delta
                    col_pot[j] -= delta
                else:
                    slack[j] -= delta
            column = nxt
        while column:
            previous = came[column]
            owner[column] = owner[previous]
            column = previous
    out = [0] * n
    for j in range(1, n + 1):
        out[owner[j] - 1] = j - 1
    return out


def _matched_seats(tournament: Tournament, round_: int, seats: dict[str, list[int]]) -> dict[int, list[str]]:
    """The players of a round with byes, each given a seat number (``tables`` players per number).

    Who plays: everyone with fewer games than the last place's worth (they must), then, among
    those with exactly that many (by lot), first those who can take a seat they have not had, so
    a bye goes where it also spares a repeated seat. The players with most games sit out, so the
    numbers of games never differ by more than one."""
    rng = random.Random(f"{tournament.seed}/seats/{round_}")
    games = {name: len(seats[name]) for name in tournament.players}
    order = sorted(tournament.players, key=lambda name: (games[name], rng.random()))
    slots = tournament.tables * 10
    cutoff = games[order[slots - 1]]
    held: dict[int, list[str]] = {seat: [] for seat in range(10)}
    placed: set[str] = set()
    for group in ([n for n in order if games[n] < cutoff], [n for n in order if games[n] == cutoff]):
        for repeats in range(tournament.rounds + 1):
            for name in group:
                if len(placed) < slots and name not in placed and \
                        _augment(name, repeats, held, seats, tournament.tables, set()):
                    placed.add(name)
            if len(placed) == slots or all(name in placed for name in group):
                break
    return held


def sitting_out(tournament: Tournament, plan: list[list[str]]) -> list[str]:
    """Who sits out a round, in the order of the players' list (nobody when the tables are full)."""
    seated = {name for table in plan for name in table}
    return [name for name in tournament.players if name not in seated]


def _augment(name: str, repeats: int, held: dict[int, list[str]], seats: dict[str, list[int]], size: int,
             seen: set[int]) -> bool:
    """Kuhn's augmenting path: give ``name`` a seat it has had at most ``repeats`` times, moving
    others along if needed (each seat number holds ``size`` players)."""
    for seat in sorted(range(10), key=lambda s: seats[name].count(s)):
        if seat in seen or seats[name].count(seat) > repeats:
            continue
        seen.add(seat)
        if len(held[seat]) < size:
            held[seat].append(name)
            return True
        for other in list(held[seat]):
            if _augment(other, repeats, held, seats, size, seen):
                held[seat].remove(other)
                held[seat].append(name)
                return True
    return False


def _cost(name: str, table: list[str | None], met: dict[frozenset[str], int], policy: dict[frozenset[str], float]) -> float:
    cost = 0.0
    for other in table:
        if other is not None:
            key = frozenset((name, other))
            cost += met.get(key, 0) ** 2 * 3 + policy.get(key, 0.0)
    return cost


def seating(tournament: Tournament) -> list[list[list[str]]]:
    """Every round's tables, seat 1 first (deterministic for the tournament's seed)."""
    tournament.check()
    met: dict[frozenset[str], int] = {}
    seats: dict[str, list[int]] = {name: [] for name in tournament.players}
    return [seat_round(tournament, r, met, seats) for r in range(1, tournament.rounds + 1)]


@dataclass(frozen=True)
class GameEntry:
    """A stored game: where it was played, who sat where, its protocol, and whether it counts."""

    round: int
    table: int
    players: tuple[str, ...]
    protocol: Protocol
    version: int = 1
    cancelled: bool = False


def standings(tournament: Tournament, games: list[GameEntry], up_to_round: int | None = None,
              up_to_table: int | None = None) -> list[dict[str, Any]]:
    """The table after every counted game, or after a round, or after one game (a round and a
    table: the games before it in order of round and table, and it), sorted by the tie-breaks."""
    system = tournament.system
    rows = {name: _empty_row(name, system, tournament.team_of(name)) for name in tournament.players}
    stages: dict[str, set[str]] = {}
    last = (up_to_round if up_to_round is not None else 10**9, up_to_table if up_to_table is not None else 10**9)
    for game in sorted(games, key=lambda g: (g.round, g.table)):
        if game.cancelled or game.protocol.winner is None or (game.round, game.table) > last:
            continue
        stage = tournament.stage(game.round)
        scores = system.score(game.protocol, stage)
        stats = vote_stats(game.protocol)
        for seat, name in enumerate(game.players, start=1):
            _add(rows[name], game.protocol, seat, scores[seat], stats[seat])
            stages.setdefault(name, set()).add(stage)
    most_games = max((row["games"] for row in rows.values()), default=0)
    most_stages = max((len(played) for played in stages.values()), default=0)
    for row in rows.values():
        row["stages"] = len(stages.get(row["player"], ()))
        _finish(row, system, Played(row["games"], row["stages"], row["wins"], most_games, most_stages))
    ranked = sorted(rows.values(), key=lambda row: _sort_key(row, system.tie_breaks))
    for place, row in enumerate(ranked, start=1):
        row["place"] = place
    return ranked


def _finish(row: dict[str, Any], system: System, played: Played) -> None:
    """What needs all of a player's games (and the whole tournament's): the first-night
    compensation, the normaliser's factor on the whole total, and points per game."""
    comp = system.compensation
    if comp is not None:
        each = comp.per_game(row["shot_first_as_red"], row["games"])
        row["compensation"] = round(each * row["shot_first_as_red"], 4)
        row[comp.group] += row["compensation"]
        row["points"] += row["compensation"]
    row["raw_points"] = round(row["points"], 4)
    if system.normaliser:
        scale = factor(system.normaliser, played)
        row["normalisation"] = round(scale, 6)
        for key in ("points", "compensation", *GROUPS):
            row[key] *= scale
    for key in ("points", "compensation", *GROUPS):
        row[key] = round(row[key], 4)
    row["average"] = round(row["points"] / row["games"], 4) if row["games"] else 0.0


def _empty_row(name: str, system: System, team: str) -> dict[str, Any]:
    row: dict[str, Any] = {"place": 0, "player": name, "team": team, "points": 0.0, **dict.fromkeys(GROUPS, 0.0), "games": 0,
                           "average": 0.0, "wins": 0, "special_role_wins": 0, "killed_first_night": 0,
                           "shot_first_as_red": 0, "compensation": 0.0, "raw_points": 0.0, "normalisation": 1.0,
                           "stages": 0, "against_red": 0,
                           "against_black": 0, "decisive": 0, "system": system.label}
    return row


def _add(row: dict[str, Any], proto: Protocol, seat: int, score: dict[str, float], stats: dict[str, int]) -> None:
    row["games"] += 1
    for key in ("points", *GROUPS):
        row[key] += score[key]
    won = proto.winner == proto.team(seat)
    row["wins"] += int(won)
    row["special_role_wins"] += int(won and proto.roles[seat - 1] in ("don", "sheriff"))
    gone = proto.departure(seat)
    first = gone is not None and gone.how == "shot" and gone.number == 2
    row["killed_first_night"] += int(first)
    row["shot_first_as_red"] += int(first and proto.team(seat) == "red")
    for key in ("against_red", "against_black", "decisive"):
        row[key] += stats[key]


def _sort_key(row: dict[str, Any], ties: tuple[str, ...]) -> tuple[Any, ...]:
    key: list[Any] = []
    for tie in ties:
        fewer = tie.startswith("-")
        value = sum(row[part] for part in tie.lstrip("-").split("+"))
        key.append(round(value, 6) if fewer else -round(value, 6))
    key.append(row["player"])
    return tuple(key)


def ratings(tournament: Tournament, games: list[GameEntry]) -> list[dict[str, Any]]:
    """Every rated player's Elo tracks from the tournament's counted games in order, best overall first."""
    return ratings_across([(tournament, games)])


def ratings_across(events: list[tuple[Tournament, list[GameEntry]]]) -> list[dict[str, Any]]:
    """Ratings over several events in the order given (a federation's rating): each event's
    games in order (round, table), each moving the tracks with its own event class's K factors.
    Players are the same player across events when their names are the same."""
    table = rate(RatedGame((index, g.round, g.table), g.players, tuple(g.protocol.roles), g.protocol.winner or "",
                           tour.event_class)
                 for index, (tour, games) in enumerate(events)
                 for g in games if not g.cancelled and g.protocol.winner)
    rows: list[dict[str, Any]] = [
        {"player": p, "red": round(r.red, 4), "black": round(r.black, 4), "overall": round(r.overall, 4),
         "red_games": r.red_games, "black_games": r.black_games} for p, r in table.items()]
    rows.sort(key=lambda row: (-float(row["overall"]), str(row["player"])))
    return rows


def team_standings(tournament: Tournament, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The teams ranked by the sum of their members' points (then wins, then name), from the
    players' standings: a team is as good as its members' games, whoever played them."""
    teams: dict[str, dict[str, Any]] = {
        team: {"place": 0, "team": team, "members": list(members), "points": 0.0, "games": 0, "wins": 0,
               "system": tournament.system.label} for team, members in tournament.teams.items()}
    for row in rows:
        if row["team"]:
            for key in ("points", "games", "wins"):
                teams[row["team"]][key] += row[key]
    ranked = sorted(teams.values(), key=lambda t: (-round(t["points"], 6), -t["wins"], t["team"]))
    for place, team in enumerate(ranked, start=1):
        team["place"], team["points"] = place, round(team["points"], 4)
    return ranked


def as_csv(rows: list[dict[str, Any]]) -> str:
    """Standings rows as CSV, a header line first (the CLI's and the server's exports)."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(rows[0]) if rows else ["place"], lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()
