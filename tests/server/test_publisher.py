"""The cluster's :class:`Publisher`: the publishes of one turn of the event loop go to Redis as
one pipeline, each caller gets its own count of receivers, and what one channel is sent arrives
in order. A real ``redis-server``."""

from __future__ import annotations

import asyncio
from typing import Any

import redis.asyncio
import redis.exceptions

from mafioso.server.cluster import Publisher
from tests.server.conftest import free_port
from tests.server.test_cluster import redis_url  # noqa: F401 - the fixture: a throwaway redis-server


class Counted(Publisher):
    """A publisher that counts the pipelines it sends (the real ones, to the real server)."""

    pipelines = 0

    def __init__(self, client: Any) -> None:
        super().__init__(client)
        pipeline = client.pipeline

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.pipelines += 1
            return pipeline(*args, **kwargs)

        client.pipeline = counted


async def received(listener: Any, count: int) -> list[tuple[str, str]]:
    """The next ``count`` messages a subscription gets: ``(channel, text)``."""
    got: list[tuple[str, str]] = []
    while len(got) < count:
        message = await listener.get_message(ignore_subscribe_messages=True, timeout=5)
        if message is not None:
            got.append((message["channel"].decode(), message["data"].decode()))
    return got


def test_the_publishes_of_one_turn_are_one_pipeline_each_counted_and_in_order(redis_url: str) -> None:  # noqa: F811
    async def run() -> tuple[list[int], list[tuple[str, str]], int, list[int]]:
        client = redis.asyncio.Redis.from_url(redis_url)
        listener = client.pubsub()
        await listener.subscribe("a", "b", "c")
        publisher = Counted(client)
        texts = [("abc"[n % 3], f"{n}") for n in range(60)]
        counts = await asyncio.gather(*(publisher.publish(channel, text) for channel, text in texts),
                                      publisher.publish("nobody", "lost"))
        got = await received(listener, 60)
        one_turn = publisher.pipelines
        again = [await publisher.publish("a", "one"), await publisher.publish("b", "two")]  # one turn each
        await received(listener, 2)
        await listener.aclose()
        await client.aclose()
        return counts, got, one_turn, [publisher.pipelines - one_turn, *again]

    counts, got, one_turn, after = asyncio.run(run())
    assert counts == [1] * 60 + [0], "each publish has its own count: a channel nobody listens to, 0"
    assert one_turn == 1, "sixty publishes made in one turn of the loop: one pipeline"
    for channel in "abc":
        assert [text for ch, text in got if ch == channel] == [str(n) for n in range(60) if "abc"[n % 3] == channel]
    assert after == [2, 1, 1], "publishes awaited one after the other: a pipeline each"


def test_every_caller_of_a_pipeline_that_fails_gets_the_error() -> None:
    async def run() -> list[Any]:
        client = redis.asyncio.Redis.from_url(f"redis://127.0.0.1:{free_port()}/0")  # nothing listens there
        publisher = Publisher(client)
        outcomes = await asyncio.gather(*(publisher.publish("a", str(n)) for n in range(3)), return_exceptions=True)
        await client.aclose()
        return outcomes

    outcomes = asyncio.run(run())
    assert len(outcomes) == 3 and all(isinstance(o, redis.exceptions.ConnectionError) for o in outcomes), outcomes
