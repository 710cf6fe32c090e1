"""Rate limits, and who a client is (its network address, through trusted proxies only).

Every limit is a token bucket per client network (an IPv4 address, an IPv6 /64: one home or
one phone). A bucket that has filled up again is the same as no bucket at all, so memory is
bounded by forgetting only full buckets: a limited client is never let off by being forgotten.
When a flood of addresses fills the memory with buckets that are still spent, new addresses
share one overflow bucket, which slows the flood down and nobody already known.
"""

from __future__ import annotations

import ipaddress
import logging
import re
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

Clock = Callable[[], float]
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
OVERFLOW = "*"
log = logging.getLogger("mafioso.server")


@dataclass(slots=True)
class Bucket:
    """``tokens`` left as of ``stamp`` (they refill continuously up to the capacity)."""

    tokens: float
    stamp: float


class RateLimit:
    """At most ``capacity`` actions at once per key, refilled at ``per_second``.

    ``take`` spends a token if there is one; ``blocked`` tells whether none is left without
    spending. Memory holds at most about ``max_keys`` buckets (see the module's docstring).
    """

    def __init__(self, capacity: float, per_second: float, clock: Clock = time.monotonic,
                 max_keys: int = 50_000) -> None:
        self.capacity = capacity
        self.per_second = per_second
        self.clock = clock
        self.max_keys = max_keys
        self.buckets: dict[str, Bucket] = {}

    def _level(self, bucket: Bucket, now: float) -> float:
        return min(self.capacity, bucket.tokens + (now - bucket.stamp) * self.per_second)

    def _bucket(self, key: str, now: float) -> Bucket:
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= self.max_keys:
                self._sweep(now)
            if len(self.buckets) >= self.max_keys:
                key = OVERFLOW
                bucket = self.buckets.get(key)
            if bucket is None:
                bucket = self.buckets[key] = Bucket(self.capacity, now)
        bucket.tokens, bucket.stamp = self._level(bucket, now), now
        return bucket

    def _sweep(self, now: float) -> None:
        """Forget the buckets that are full again: they hold nothing a fresh bucket would not."""
        for key in [k for k, b in self.buckets.items() if self._level(b, now) >= self.capacity]:
            del self.buckets[key]

    def blocked(self, key: str) -> bool:
        """Whether ``key`` has no token left now (nothing is spent)."""
        return self._bucket(key, self.clock()).tokens < 1

    def take(self, key: str) -> bool:
        """Spend one token of ``key``; ``False`` (and nothing spent) when none is left."""
        bucket = self._bucket(key, self.clock())
        if bucket.tokens < 1:
            return False
        bucket.tokens -= 1
        return True


def network_key(address: str) -> str:
    """The key of a client for rate limits: its IPv4 address, or its IPv6 /64 (one home network).

    Anything that is not an IP address (a test client's name) is its own key.
    """
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address[:64]
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, 64), strict=False))
    return str(parsed)


def parse_proxies(values: Iterable[str]) -> tuple[Network, ...]:
    """``--trusted-proxy`` values (addresses or networks such as ``10.0.0.0/8``); ``ValueError`` if bad."""
    return tuple(ipaddress.ip_network(value.strip(), strict=False) for value in values)


def client_address(peer: str | None, headers: Mapping[str, str], proxies: tuple[Network, ...]) -> str:
    """The client's address: the connection's peer, unless that peer is a trusted proxy.

    Then ``X-Forwarded-For`` is read from its right end (the entry the proxy itself added),
    skipping further trusted proxies; the first untrusted address is the client. A header
    from anyone else is ignored: any client can write one.
    """
    address = peer or "?"
    if not proxies or not _trusted(address, proxies):
        return address
    forwarded = [part.strip() for part in headers.get("x-forwarded-for", "").split(",") if part.strip()]
    for hop in reversed(forwarded):
        if not _trusted(hop, proxies):
            return hop[:64]
        address = hop
    return address


FORWARDED_HOST = re.compile(r"(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::([0-9]{1,5}))?")
"""A host (a name, an IPv4 address or a bracketed IPv6 one) with an optional port: nothing else
of a ``Host`` header is ever put into an address shown to people."""


def forwarded_origin(peer: str | None, headers: Mapping[str, str], proxies: tuple[Network, ...]) -> str | None:
    """The address (``scheme://host``) a client used to reach a trusted proxy in front of the
    server, from ``X-Forwarded-Proto`` and ``X-Forwarded-Host`` (or ``Host``, which Caddy passes
    on unchanged); ``None`` when the peer is no trusted proxy or the headers do not read as one.
    Behind a proxy the server's own address (loopback) is no use to phones: the join address and
    its QR code are built from this instead.

    Of a list, the last value is read: the one the trusted proxy wrote. A proxy that adds its
    value to what the client sent (Apache's ``X-Forwarded-Host``) leaves the client's own first."""
    if not proxies or peer is None or not _trusted(peer, proxies):
        return None
    scheme = headers.get("x-forwarded-proto", "http").split(",")[-1].strip().lower()
    host = (headers.get("x-forwarded-host") or headers.get("host") or "").split(",")[-1].strip()
    if scheme not in ("http", "https") or not plain_host(host):
        return None
    return f"{scheme}://{host}"


def plain_host(host: str) -> bool:
    """Whether ``host`` is a host name or address with an optional port from 1 to 65535, as
    :data:`FORWARDED_HOST` reads it: the only kind of host put into an address shown to people."""
    shape = FORWARDED_HOST.fullmatch(host)
    return shape is not None and int(shape.group(1) or 1) in range(1, 65536)


def _trusted(address: str, proxies: tuple[Network, ...]) -> bool:
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(parsed in network for network in proxies)


SHARED_BUCKET = """
local capacity, rate, spend = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
local stored = redis.call('HMGET', KEYS[1], 'tokens', 'stamp')
local tokens = tonumber(stored[1]) or capacity
local stamp = tonumber(stored[2]) or now
tokens = math.min(capacity, tokens + math.max(0, now - stamp) * rate)
local ok = 0
if tokens >= 1 then
  ok = 1
  tokens = tokens - spend
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'stamp', tostring(now))
redis.call('EXPIRE', KEYS[1], math.ceil(capacity / rate) + 1)
return ok
"""
"""A token bucket kept in Redis, refilled by Redis's own clock (one clock for every process):
returns 1 when a token was there (and spends ``spend`` of it), else 0."""


class SharedRateLimit(RateLimit):
    """A :class:`RateLimit` shared by every server process through Redis (``--redis``), so that N
    processes allow a client network the rate of one, not N times it.

    Each check is one short Redis call (a script: atomic, no race between processes). Should Redis
    not answer within :attr:`TIMEOUT`, this process counts alone meanwhile (its own buckets, as
    without Redis): a lost Redis never refuses everyone, nor lets anyone off entirely.
    """

    TIMEOUT = 0.25

    def __init__(self, name: str, client: Any, capacity: float, per_second: float, clock: Clock = time.monotonic,
                 max_keys: int = 50_000) -> None:
        super().__init__(capacity, per_second, clock, max_keys)
        self.name = name
        self.client = client
        self.script: Any = client.register_script(SHARED_BUCKET)

    def _shared(self, key: str, spend: int) -> bool | None:
        try:
            return bool(self.script(keys=[f"mafioso:limit:{self.name}:{key}"],
                                    args=[self.capacity, self.per_second, spend]))
        except Exception as error:
            log.warning("rate limit %s: Redis did not answer (%s); counting in this process meanwhile", self.name, error)
            return None

    def blocked(self, key: str) -> bool:
        shared = self._shared(key, 0)
        return super().blocked(key) if shared is None else not shared

    def take(self, key: str) -> bool:
        shared = self._shared(key, 1)
        return super().take(key) if shared is None else shared


def shared_limits(limits: dict[str, RateLimit], redis_url: str) -> dict[str, SharedRateLimit]:
    """The same limits (by name), shared through the Redis at ``redis_url``."""
    import redis

    client = redis.Redis.from_url(redis_url, socket_timeout=SharedRateLimit.TIMEOUT,
                                  socket_connect_timeout=SharedRateLimit.TIMEOUT)
    return {name: SharedRateLimit(name, client, limit.capacity, limit.per_second, limit.clock, limit.max_keys)
            for name, limit in limits.items()}
