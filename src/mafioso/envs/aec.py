"""The PettingZoo AEC adapter over :class:`mafioso.engine.Game`, for every edition.

Like PettingZoo's classic games, the rules live below (the engine and the editions) and this
module only adapts them: :class:`raw_env` maps the game's pending prompts to
``agent_selection``, discrete actions to decisions (:mod:`mafioso.envs.actions`) and per-seat
views to observations (:mod:`mafioso.envs.observation`); :func:`env` adds the protocol wrapper.

Decisions taken here are ordinary engine decisions, so ``Game.replay(env.unwrapped.game.log())``
reproduces an env episode exactly.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

try:
    import numpy as np
    import numpy.typing as npt
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ModuleNotFoundError as missing:  # the heavy parts are an extra, like starlette's templating
    raise ModuleNotFoundError(
        f"mafioso.envs needs {missing.name!r}: install the envs extra, pip install 'mafioso[envs]'"
    ) from missing

from mafioso.engine import (
    CHOOSE_MANY,
    ELIMINATED,
    RETURNED,
    AlreadyDecided,
    Choice,
    Game,
    IllegalTarget,
    InvalidDecision,
    NotYourTurn,
    Outcome,
    Prompt,
    find_edition,
)
from mafioso.envs.actions import STOP, ActionLayout, Pick, decode
from mafioso.envs.observation import Encoder, SeatFeed

RENDER_MODES = ("ansi", "human")
Observation = dict[str, npt.NDArray[Any]]


def agent_name(seat: int) -> str:
    """The agent id of a seat: ``seat_1`` .. ``seat_N``."""
    return f"seat_{seat}"


def seat_of(agent: str) -> int:
    """The seat number of an agent id (``"seat_3"`` -> 3)."""
    prefix, _, number = agent.partition("_")
    if prefix != "seat" or not number.isdecimal():
        raise InvalidDecision(f"no agent {agent!r}; agents are seat_1 .. seat_N")
    return int(number)


class raw_env(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """A game of one edition as a PettingZoo AEC environment (see ``docs/envs.md``).

    ``players``, ``options``, ``seats`` (fixed roles) and ``decoys`` are passed to
    :class:`~mafioso.engine.Game`; ``reset(seed=s)`` starts ``Game(..., seed=s)``. Decoys are on
    by default because the agent selection is public in PettingZoo: without decoys, the agents
    stepped at night would be exactly those with a night ability. ``max_options`` is the number
    of option slots of the action space (default ``2 * players + 8``). ``terminate_eliminated``
    removes a seat from ``agents`` once it is publicly out and its phase is over; with
    ``False`` eliminated seats stay (never selected) and receive the final reward.
    ``secret_turn`` is the least number of steps of every prompt in a secret step (a batch
    with decoys); see :meth:`turn_length`.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012  # PettingZoo's convention: a class attribute
        "name": "mafioso_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
    }

    def __init__(
        self,
        edition: str,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        decoys: bool = True,
        render_mode: str | None = None,
        max_options: int | None = None,
        *,
        seats: Sequence[str] | None = None,
        terminate_eliminated: bool = True,
        secret_turn: int = 1,
    ) -> None:
        super().__init__()
        if secret_turn < 1:
            raise ValueError(f"secret_turn is at least 1 step, not {secret_turn}")
        self.secret_turn = secret_turn
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode is one of {', '.join(RENDER_MODES)} or None, not {render_mode!r}")
        self.edition = find_edition(edition)
        self.options = dict(options or {})
        self.seats_input = list(seats) if seats is not None else None
        self.decoys = decoys
        self.render_mode = render_mode
        self.terminate_eliminated = terminate_eliminated
        # a throw-away game checks the setup now and fixes the table size for the spaces
        probe = Game(self.edition, players, seats=self.seats_input, options=self.options, seed=0, decoys=decoys)
        self.players = probe.players
        self.metadata = {**self.metadata, "name": f"mafioso_{self.edition.id}_v0"}
        slots = 2 * self.players + 8 if max_options is None else max_options
        if slots < 0:
            raise ValueError(f"max_options must be at least 0, not {max_options}")
        self.layout = ActionLayout(self.players, slots)
        self.encoder = Encoder(self.edition, self.layout)
        self.possible_agents = [agent_name(s) for s in range(1, self.players + 1)]
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(low=0.0, high=np.inf, shape=(self.encoder.size,), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(self.layout.size,), dtype=np.int8),
            }
        )
        self._action_space = spaces.Discrete(self.layout.size)
        self._seed_source = random.Random()
        self.game: Game = probe
        """The engine game of the current episode. Agents must not read it: it holds hidden roles."""
        self.results: dict[str, int] = {}
        """Final reward of every seat once the game is over (eliminated ones included)."""
        self.agents: list[str] = []

    # -- spaces ------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same Dict space for every agent: ``observation`` vector and ``action_mask``."""
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The same Discrete space for every agent (layout in :mod:`mafioso.envs.actions`)."""
        return self._action_space

    # -- episode -----------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game: ``Game(edition, players, options=..., seed=seed)``.

        Without a seed, the next seed is drawn from a generator seeded by the last seed given
        (so a seeded reset followed by unseeded ones is reproducible too). ``options`` is
        PettingZoo's per-reset dict and is not used: the edition's options are fixed when the
        env is made (PettingZoo's ``api_test`` passes one, so it cannot be refused).
        """
        if seed is None:
            seed = self._seed_source.randrange(2**31)
        else:
            self._seed_source.seed(seed)
        self.game = Game(
            self.edition,
            self.players if self.seats_input is None else None,
            seats=self.seats_input,
            options=self.options,
            seed=seed,
            decoys=self.decoys,
        )
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.results = {}
        self._feeds: dict[int, SeatFeed] = {
            s: self.encoder.feed(self.game.observer(s)) for s in range(1, self.players + 1)
        }
        """Each seat's observer, the one source of what the seat knows."""
        self._seen = 0
        self._public_out: dict[int, tuple[str, int | None]] = {}
        """Seats publicly out of play, with the phase (name, number) in which they went out."""
        self._removed: set[int] = set()
        self._picks: list[Any] = []
        self._held: list[Choice] = []
        """The answer of the current prompt while its padded turn runs on (empty, or one choice)."""
        self._turn_step = 0
        self._prompt: Prompt | None = None
        self._new_batch()
        self._rendered = 0
        self._skip_agent_selection = None
        self.agent_selection = self.possible_agents[0]
        self._after_decision()

    def step(self, action: Any) -> None:
        """Act for ``agent_selection``: an action index, or ``None`` for a terminated agent.

        An illegal action raises the engine's typed error (``IllegalTarget``,
        ``InvalidDecision``) and changes nothing: a game master asks again, it does not punish.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise InvalidDecision(f"{agent} is out of the game; the only action is None")
            self._remove(agent)
            return
        prompt = self._require_prompt(agent)
        if self._held:
            self._wait(agent, prompt, action)
            return
        result = decode(self.layout, prompt, self._picks, action)
        if isinstance(result, Pick):
            self._picks.append(result.option)
            self._turn_step += 1
            self._idle(agent)
            return
        self._answer(agent, prompt, result.choice)

    def act_json(self, agent: str, choice: Choice) -> None:
        """Answer the current prompt of ``agent`` with any legal engine choice (speech claims...).

        The escape hatch for agents that read ``infos[agent]["prompt"]``: ``choice`` is what
        ``Game.decide`` takes. It must be ``agent_selection``'s turn; picks of an unfinished
        ``choose_many`` sequence are discarded. It counts as one step of a padded turn (see
        :meth:`step`): if ``infos[agent]["waiting"]`` is then true, step ``STOP`` until the turn ends.
        """
        if agent != self.agent_selection or self.terminations.get(agent, True) or self.truncations.get(agent, True):
            raise NotYourTurn(f"{agent} has nothing to decide now; {self.agent_selection} is to act")
        prompt = self._require_prompt(agent)
        if self._held:
            raise AlreadyDecided(f"{agent} already answered {prompt.act!r}; step STOP until its turn ends")
        self._answer(agent, prompt, choice)

    def _require_prompt(self, agent: str) -> Prompt:
        if self._prompt is None or agent_name(self._prompt.seat) != agent:
            raise NotYourTurn(f"{agent} has nothing to decide now")
        return self._prompt

    def _answer(self, agent: str, prompt: Prompt, choice: Choice) -> None:
        """A complete answer: decide it now, or hold it until the padded turn is over."""
        value = prompt.check(choice)  # the engine's typed error, before anything changes
        self._turn_step += 1
        if self._turn_step < self._turn_length:
            self._held = [value]
            self._picks = []
            self._idle(agent)
            return
        self._decide(agent, prompt, value)

    def _wait(self, agent: str, prompt: Prompt, action: Any) -> None:
        """One waiting step of a padded turn; only STOP is legal. The last one decides."""
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise InvalidDecision(f"an action is an integer from 0 to {self.layout.size - 1}, not {action!r}")
        if int(action) != STOP:
            raise IllegalTarget(
                f"{agent} has answered {prompt.act!r} and waits for its turn to end: the only action is STOP"
            )
        self._turn_step += 1
        if self._turn_step < self._turn_length:
            self._idle(agent)
            return
        self._decide(agent, prompt, self._held[0])

    def _idle(self, agent: str) -> None:
        """A step that decides nothing in the engine (a pick, a wait): only bookkeeping changes."""
        self._cumulative_rewards[agent] = 0
        self._clear_rewards()
        self._refresh_infos()

    def _decide(self, agent: str, prompt: Prompt, choice: Choice) -> None:
        self._engine_decide(prompt, choice)  # raises, changing nothing, if illegal
        self._picks = []
        self._held = []
        self._turn_step = 0
        self._cumulative_rewards[agent] = 0
        self._after_decision()

    def _engine_decide(self, prompt: Prompt, choice: Choice) -> None:
        """Decide in the engine and notice when the game has moved on to a new batch."""
        game = self.game
        rest = {p.id for p in game.awaiting()} - {prompt.id}
        game.decide(prompt.seat, prompt.id, choice)
        now = {p.id for p in game.awaiting()}
        if not rest or not now <= rest:
            self._new_batch()

    def _new_batch(self) -> None:
        """Fix the turn length of a new batch (see :meth:`turn_length`)."""
        self._turn_length = self.turn_length(self.game.awaiting())

    def turn_length(self, batch: Sequence[Prompt]) -> int:
        """How many steps each prompt of ``batch`` takes: 1, or more when timing must be hidden.

        A ``choose_many`` answer takes one step per pick (plus STOP), and the agent selection is
        public in PettingZoo: a seat that stays selected would show that it holds the multi-choice
        role (sport's don at night 0). So when decoys are on and a batch prompts several seats
        and holds a ``choose_many`` prompt, every prompt of the batch takes exactly as many steps
        as the longest possible sequence; an answer made early is held (not yet decided) and the
        seat steps STOP until its turn is over.

        The padding is read from the batch, decoys included. The engine builds a secret step's
        decoys from the same spec as its real prompts (``engine.steps.secret_step``), so they are
        multi-choice too, even when the role holder is gone: the padding hides which seat acts and
        whether anyone does. ``secret_turn`` sets a least number of steps for every prompt of a
        batch with decoys (kept from version 0, when decoys could be single choices).
        """
        if not self.decoys or len({p.seat for p in batch}) < 2:
            return 1
        longest = self.secret_turn if any(p.decoy for p in batch) else 1
        for prompt in batch:
            if prompt.kind == CHOOSE_MANY:
                reachable = sum(1 for o in prompt.options if self.layout.action_of(prompt, o) is not None)
                longest = max(longest, min(prompt.max_count, reachable))
        return longest

    # -- after each decision -----------------------------------------------------------------
    def _after_decision(self) -> None:
        """Answer prompts of removed seats, settle the end or eliminations, pick the next agent."""
        self._clear_rewards()
        self._answer_removed()
        self._absorb_events()
        outcome = self.game.outcome
        if outcome is not None:
            self._finish(outcome)
        else:
            self._eliminate()
        self._accumulate_rewards()
        self._select()
        self._refresh_infos()

    def _answer_removed(self) -> None:
        """A removed agent cannot come back, so the engine's prompts to it take their default.

        This only happens if an edition prompts a seat after the phase in which it went out;
        the default is the engine's timeout choice, so the log still replays exactly.
        """
        game = self.game
        while game.outcome is None:
            stale = [p for p in game.awaiting() if p.seat in self._removed]
            if not stale:
                return
            prompt = stale[0]
            self._engine_decide(prompt, prompt.default)

    def _absorb_events(self) -> None:
        """Note the seats publicly out of play (agents leave in public), with the phase they left in.

        Everything else an agent knows comes from its seat's observer (:class:`SeatFeed`).
        """
        events = self.game.events
        for event in events[self._seen :]:
            seat = event.data.get("seat")
            if not event.audience.public or type(seat) is not int:
                continue
            if event.kind == ELIMINATED:
                self._public_out.setdefault(seat, (event.phase.name, event.phase.number))
            elif event.kind == RETURNED:
                self._public_out.pop(seat, None)
        self._seen = len(events)

    def _finish(self, outcome: Outcome) -> None:
        """Rewards +1 to winning seats, -1 to the others, 0 to all in a draw; everyone terminates."""
        winners = set(outcome.seats)
        for seat in range(1, self.players + 1):
            name = agent_name(seat)
            result = 0 if not outcome.winners else 1 if seat in winners else -1
            self.results[name] = result
            if name in self.rewards:
                self.rewards[name] = result
        for name in self.agents:
            self.terminations[name] = True
        self._prompt = None
        self._picks = []

    def _eliminate(self) -> None:
        """Terminate seats publicly out of play whose phase is over and who are not prompted.

        Waiting for the end of the phase lets the rules still ask them what they are owed in
        it (last words, the best move), which arrive as later batches of the same phase.
        """
        if not self.terminate_eliminated:
            return
        game = self.game
        now = (game.phase.name, game.phase.number)
        prompted = {p.seat for p in game.awaiting()}
        for seat, phase in self._public_out.items():
            name = agent_name(seat)
            if seat in self._removed or self.terminations.get(name, True) or seat in prompted:
                continue
            if phase != now:
                self.terminations[name] = True

    def _select(self) -> None:
        """Dead agents step first (PettingZoo's exit path), then the next prompt in seat order."""
        dead = [a for a in self.agents if self.terminations[a] or self.truncations[a]]
        if dead:
            self.agent_selection = dead[0]
            self._prompt = None
            return
        game = self.game
        if game.outcome is not None:
            return
        prompts = sorted(game.awaiting(), key=lambda p: p.seat)  # stable: a seat's prompts keep their order
        for prompt in prompts:
            if prompt.seat not in self._removed:
                self._prompt = prompt
                self.agent_selection = agent_name(prompt.seat)
                if not self.layout.mask(prompt).any():
                    raise ValueError(
                        f"{self.agent_selection} has no legal action for {prompt.act!r} with {self.layout.slots} "
                        f"option slots; its options are {list(prompt.options)}: raise max_options"
                    )
                return
        raise RuntimeError(f"{self.edition.id}: no agent can answer the pending prompts in {game.phase}")

    def _remove(self, agent: str) -> None:
        """PettingZoo's dead step: the terminated agent leaves ``agents`` for good."""
        self._removed.add(seat_of(agent))
        self.agents.remove(agent)
        for table in (self.rewards, self._cumulative_rewards, self.terminations, self.truncations, self.infos):
            del table[agent]
        self._clear_rewards()
        if self.agents:
            self._answer_removed()
            self._absorb_events()
            self._select()
            self._refresh_infos()

    def _refresh_infos(self) -> None:
        game = self.game
        current = self._prompt
        for name in self.agents:
            seat = seat_of(name)
            feed = self._feeds[seat].update()
            mine = current if current is not None and current.seat == seat and name == self.agent_selection else None
            self.infos[name] = {
                "seat": seat,
                "view": {
                    "seat": seat,
                    "players": self.players,
                    "phase": game.phase.to_json(),
                    "events": list(feed.events),
                    "prompts": [p.to_json() for p in game.awaiting() if p.seat == seat],
                    "outcome": game.outcome.to_json() if game.outcome else None,
                },
                "prompt": mine.to_json() if mine is not None else None,
                "picks": list(self._picks) if mine is not None else [],
                "waiting": bool(self._held) if mine is not None else False,
            }

    # -- observations ------------------------------------------------------------------------
    def observe(self, agent: str) -> Observation:
        """The agent's observation: its vector and its action mask (all zeros unless it is due)."""
        seat = seat_of(agent)
        prompt = (
            self._prompt
            if (
                self._prompt is not None
                and self._prompt.seat == seat
                and agent == self.agent_selection
                and not self.terminations.get(agent, True)
            )
            else None
        )
        picks = self._picks if prompt is not None else []
        vector = self.encoder.encode(self._feeds[seat], prompt, picks)
        if prompt is not None and self._held:
            mask = self.layout.empty_mask()
            mask[STOP] = 1
        else:
            mask = self.layout.mask(prompt, picks)
        return {"observation": vector, "action_mask": mask}

    def action_mask(self, agent: str) -> npt.NDArray[np.int8]:
        """The action mask of ``agent`` now (same as ``observe(agent)["action_mask"]``)."""
        return self.observe(agent)["action_mask"]

    # -- rendering ---------------------------------------------------------------------------
    def render(self) -> str | None:
        """The public narration since the last call (``ansi`` returns it, ``human`` prints it)."""
        if self.render_mode is None:
            return None
        from mafioso.i18n import narrate  # reads message catalogues: only when rendering

        lines = []
        for event in self.game.events[self._rendered :]:
            if event.audience.public:
                line = narrate(self.edition, event)
                if line:
                    lines.append(line)
        self._rendered = len(self.game.events)
        text = "\n".join(lines)
        if self.render_mode == "human":
            if text:
                print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the game is plain memory."""


def env(
    edition: str,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    decoys: bool = True,
    render_mode: str | None = None,
    max_options: int | None = None,
    *,
    seats: Sequence[str] | None = None,
    terminate_eliminated: bool = True,
    secret_turn: int = 1,
) -> AECEnv:
    """The environment for ``edition``, wrapped in PettingZoo's ``OrderEnforcingWrapper``.

    There is no ``TerminateIllegalWrapper``: an illegal action raises a typed error and the
    agent may try again, and no ``AssertOutOfBoundsWrapper``: the env itself rejects
    out-of-range actions with :class:`~mafioso.engine.InvalidDecision`.
    """
    raw = raw_env(
        edition,
        players,
        options,
        decoys,
        render_mode,
        max_options,
        seats=seats,
        terminate_eliminated=terminate_eliminated,
        secret_turn=secret_turn,
    )
    return wrappers.OrderEnforcingWrapper(raw)


__all__ = ["agent_name", "env", "raw_env", "seat_of"]
