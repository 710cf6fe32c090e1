"""Moments in the formats' own terms: mafiaratings' game time and Polemica's stage.

Both formats say when a foul or a removal happened by naming what was going on (a speech, the
vote on a nominee, the shooting); :class:`~mafioso.desk.record.Moment` says the same in
mafioso's steps. The tables below are the whole mapping, both ways (``docs/desk.md`` lists it).
"""

from __future__ import annotations

from mafioso.desk.record import Day, Moment

NIGHT_STEPS = ("shooting", "don check", "sheriff check")


def day_step(act: str, round_: int, day: Day | None) -> str:
    """The step of a day moment from what was going on (last words follow the day's last vote)."""
    if act == "speech":
        return "speeches"
    if act == "defence":
        return "defence"
    if act == "vote":
        return "revote" if round_ else "voting"
    if act == "lift":
        return "lift"
    if day is not None and day.lift is not None:
        return "lift"
    return "revote" if round_ else "voting"


# -- mafiaratings: {"round", "time", "speaker", "nominee", "votingRound"} ---------------------------
MR_NIGHT = {("night", 0, "mafia"): "arrangement", ("night", 0, "sheriff"): "relaxed sitting"}
MR_NIGHT_STEPS = {"shooting": "shooting", "don check": "don", "sheriff check": "sheriff"}
MR_DAY = {"speech": "speaking", "defence": "voting", "vote": "voting", "lift": "voting kill all"}


def to_mafiaratings(moment: Moment) -> dict[str, object]:
    """A moment as mafiaratings' game time (rounds: mafioso's night n and day n+1 are round n)."""
    if moment.phase == "night":
        time = MR_NIGHT.get((moment.phase, moment.number, moment.step)) or MR_NIGHT_STEPS.get(moment.step, "night start")
        return {"round": moment.number, "time": time}
    out: dict[str, object] = {"round": moment.number - 1}
    if moment.act == "last_words":
        out["time"] = "night kill speaking" if moment.step == "morning" else "day kill speaking"
    elif moment.act:
        out["time"] = MR_DAY[moment.act]
    else:
        out["time"] = "day start" if moment.step in ("morning", "speeches") else "voting start"
    if moment.act == "vote":
        out["nominee"] = moment.seat
    elif moment.seat is not None:
        out["speaker"] = moment.seat
    if moment.round:
        out["votingRound"] = moment.round
    return out


def from_mafiaratings(time: str, round_: int, speaker: int | None, nominee: int | None, voting_round: int,
                      days: dict[int, Day]) -> Moment | None:
    """The moment of a mafiaratings game time, or ``None`` if the time names no moment of sport."""
    for (phase, number, step), name in MR_NIGHT.items():
        if name == time and round_ == number:
            return Moment(phase, number, step)
    for step, name in MR_NIGHT_STEPS.items():
        if name == time and round_ >= 1:
            return Moment("night", round_, step)
    day = round_ + 1
    if time == "speaking" and speaker is not None:
        return Moment("day", day, "speeches", "speech", speaker, voting_round)
    if time == "night kill speaking" and speaker is not None:
        return Moment("day", day, "morning", "last_words", speaker, 0)
    if time == "day kill speaking" and speaker is not None:
        return Moment("day", day, day_step("last_words", voting_round, days.get(day)), "last_words", speaker,
                      voting_round)
    if time == "voting" and speaker is not None:
        return Moment("day", day, "defence", "defence", speaker, voting_round)
    if time == "voting" and nominee is not None:
        return Moment("day", day, day_step("vote", voting_round, None), "vote", nominee, voting_round)
    if time == "voting kill all":
        return Moment("day", day, "lift", "lift", None, voting_round)
    if time == "day start":
        return Moment("day", day, "morning", "", None, 0)
    if time == "voting start":
        return Moment("day", day, "voting", "", None, voting_round)
    return None


# -- Polemica: {"type", "day", "player", "voting"} ---------------------------------------------------
PO_NIGHT = {"mafia": "briefing", "sheriff": "comIntro", "shooting": "shooting", "don check": "donCheck",
            "sheriff check": "comCheck"}
PO_DAY = {"speech": "speech", "defence": "reSpeech", "vote": "voting", "lift": "lift"}


def to_polemica(moment: Moment) -> dict[str, object]:
    """A moment as Polemica's stage (its nights and days are numbered as mafioso's)."""
    if moment.phase == "night":
        return {"type": PO_NIGHT.get(moment.step, "toNight"), "day": moment.number}
    if moment.act == "last_words":
        kind = "shooted" if moment.step == "morning" else "voted"
    elif moment.act:
        kind = PO_DAY[moment.act]
    else:
        kind = "toDay" if moment.step in ("morning", "speeches") else "toVoting"
    out: dict[str, object] = {"type": kind, "day": moment.number}
    if moment.seat is not None:
        out["player"] = moment.seat
    if moment.round:
        out["voting"] = moment.round
    return out


def from_polemica(kind: str, day: int, player: int | None, voting: int, days: dict[int, Day]) -> Moment | None:
    """The moment of a Polemica stage, or ``None`` if the stage names no moment of sport."""
    for step, name in PO_NIGHT.items():
        if name == kind:
            return Moment("night", day, step)
    if kind == "shooted" and player is not None:
        return Moment("day", day, "morning", "last_words", player, 0)
    if kind == "voted" and player is not None:
        return Moment("day", day, day_step("last_words", voting, days.get(day)), "last_words", player, voting)
    for act, name in PO_DAY.items():
        if name == kind and (player is not None or act == "lift"):
            return Moment("day", day, day_step(act, voting, None), act, player, voting)
    if kind == "toDay":
        return Moment("day", day, "morning", "", None, 0)
    if kind == "toVoting":
        return Moment("day", day, "voting", "", None, voting)
    return None
