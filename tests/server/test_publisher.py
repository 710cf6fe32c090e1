"""The cluster's :class:`Publisher`: the records published in one turn of the event loop go to
Redis as one pipeline, those for one channel joined into one message in the order they were
made, and each caller gets the count of receivers of its record's message. A real
``redis-server``."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import redis.asyncio
import redis.exceptions

from mafioso.server.cluster import Publisher
from mafioso.server.relay_wire import Record, decode
from tests.server.conftest import free_port
from tests.server.test_cluster import redis_url  # noqa: F401 - the fixture: a throwaway redis-server


class Counted(Publisher):
    """A publisher that counts its round trips to Redis: the pipelines and the lone publishes it
    sends (the real ones, to the real server)."""

    trips = 0

    def __init__(self, client: Any) -> None:
        super().__init__(client)
        client.pipeline = self._counted(client.pipeline)
        client.publish = self._counted(client.publish)

    def _counted(self, call: Any) -> Any:
        def counted(*args: Any, **kwargs: Any) -> Any:
            self.trips += 1
            return call(*args, **kwargs)

        return counted


async def received(listener: Any, count: int) -> list[tuple[str, list[Record]]]:
    """The next ``count`` messages a subscription gets: ``(channel, its records)``."""
    got: list[tuple[str, list[Record]]] = []
    while len(got) < count:
        message = await listener.get_message(ignore_subscribe_messages=True, timeout=5)
        if message is not None:
            got.append((message["channel"].decode(), decode(message["data"])))
    return got


def test_the_records_of_one_turn_are_one_message_per_channel_each_counted_and_in_order(
        redis_url: str) -> None:  # noqa: F811
    async def run() -> tuple[list[int], list[tuple[str, list[Record]]], int, list[Any]]:
        client = redis.asyncio.Redis.from_url(redis_url)
        listener = client.pubsub()
        await listener.subscribe("a", "b", "c")
        other = client.pubsub()
        await other.subscribe("c")  # two listeners on c
        publisher = Counted(client)
        sent = sent_records()
        counts = await asyncio.gather(*(publisher.publish(channel, record) for channel, record in sent),
                                      publisher.publish("nobody", Record("close", "k")))
        got = await received(listener, 3)
        one_turn = publisher.trips
        again = [await publisher.publish("a", Record("text", "k", "one")),
                 await publisher.publish("b", Record("text", "k", "two"))]  # one turn each
        later = await received(listener, 2)
        await listener.aclose()  # type: ignore[no-untyped-call]
        await other.aclose()  # type: ignore[no-untyped-call]
        await client.aclose()
        return counts, got, one_turn, [publisher.trips - one_turn, *again, later]

    counts, got, one_turn, after = asyncio.run(run())
    assert counts == [1, 1, 2] * 20 + [0], "each caller has its message's count: a channel nobody listens to, 0"
    assert one_turn == 1, "sixty publishes made in one turn of the loop: one round trip (a pipeline)"
    assert sorted(channel for channel, _records in got) == ["a", "b", "c"], "one message per channel"
    for channel, records in got:
        assert records == [record for ch, record in sent_records() if ch == channel], "in the order made"
    assert after[:3] == [2, 1, 1], "publishes awaited one after the other: a round trip each (a lone publish)"
    assert after[3] == [("a", [Record("text", "k", "one")]), ("b", [Record("text", "k", "two")])]


def sent_records() -> list[tuple[str, Record]]:
    """What the test above publishes, in order."""
    return [("abc"[n % 3], Record("text", f"key{n % 5}", f"{n}\n ü")) for n in range(60)]


@pytest.mark.parametrize("channels", ["a", "ab"])
def test_every_caller_of_a_publish_that_fails_gets_the_error(channels: str) -> None:
    """One channel in a turn (a lone publish) or several (a pipeline): every caller is told."""
    async def run() -> list[Any]:
        client = redis.asyncio.Redis.from_url(f"redis://127.0.0.1:{free_port()}/0")  # nothing listens there
        publisher = Publisher(client)
        outcomes = await asyncio.gather(*(publisher.publish(channels[n % len(channels)], Record("text", "k", str(n)))
                                          for n in range(3)), return_exceptions=True)
        await client.aclose()
        return outcomes

    outcomes = asyncio.run(run())
    assert len(outcomes) == 3 and all(isinstance(o, redis.exceptions.ConnectionError) for o in outcomes), outcomes
