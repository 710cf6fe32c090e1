"""A console phone's poll while nothing changes: the whole padded message against a 304.

Starts ``mafioso serve`` on a scratch SQLite file, sets up a console table of ten phone seats,
and polls ``/api/console/phone/state`` for every seat in rounds, each round once without and
once with ``If-None-Match`` (the tag of the last message), in alternating order over one
keep-alive connection per seat. Prints the bytes a poll carries (status line, headers and body,
as received) and the median time of a poll each way, with their ratios: measured in the same
run, so they hold on a shared machine whose speed drifts.

    python benchmarks/bench_console_poll.py --rounds 200
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_phone_page import start_server

NAMES = ["Anna", "Boris", "Chen", "Dana", "Emil", "Fay", "Gus", "Hana", "Ivo", "Jan"]


def post(connection: http.client.HTTPConnection, path: str, body: dict[str, object],
         tag: str = "") -> tuple[int, int, str, bytes]:
    """(status, bytes received, ETag, body) of one POST on a kept-alive connection."""
    headers = {"Content-Type": "application/json"}
    if tag:
        headers["If-None-Match"] = tag
    connection.request("POST", path, json.dumps(body), headers)
    response = connection.getresponse()
    data = response.read()
    head = len(f"HTTP/1.1 {response.status} {response.reason}\r\n") + sum(
        len(f"{k}: {v}\r\n") for k, v in response.getheaders()) + 2
    return response.status, head + len(data), response.getheader("ETag") or "", data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        process, base = start_server(Path(folder))
        try:
            host, port = base.removeprefix("http://").split(":")
            facilitator = http.client.HTTPConnection(host, int(port))
            setup = {"edition": "sport", "names": NAMES, "seed": 7, "phones": list(range(1, 11))}
            token = json.loads(post(facilitator, "/api/console", {"setup": setup})[3])["token"]
            phones = json.loads(post(facilitator, "/api/console/phones", {"token": token})[3])["phones"]
            passes = [p["link"].split("#c=")[1] for p in phones]
            links = [http.client.HTTPConnection(host, int(port)) for _ in passes]
            tags = [post(link, "/api/console/phone/state", {"token": pass_})[2] for link, pass_ in zip(links, passes, strict=True)]
            full: list[float] = []
            cheap: list[float] = []
            sizes: dict[str, set[int]] = {"full": set(), "304": set()}
            for round_ in range(args.rounds):
                for link, pass_, tag in zip(links, passes, tags, strict=True):
                    ways = [("full", ""), ("304", tag)]
                    for way, sent in (ways if round_ % 2 else ways[::-1]):
                        began = time.perf_counter()
                        status, size, _tag, _body = post(link, "/api/console/phone/state", {"token": pass_}, sent)
                        (cheap if way == "304" else full).append(time.perf_counter() - began)
                        assert status == (304 if way == "304" else 200), status
                        sizes[way].add(size)
        finally:
            process.terminate()
            process.wait()
    full_bytes, cheap_bytes = max(sizes["full"]), max(sizes["304"])
    full_ms, cheap_ms = statistics.median(full) * 1000, statistics.median(cheap) * 1000
    print(f"polls each way: {len(full)} (10 phone seats x {args.rounds} rounds)")
    print(f"bytes a poll carries: whole message {full_bytes}, 304 {cheap_bytes}; ratio {full_bytes / cheap_bytes:.1f}")
    print(f"median time of a poll: whole message {full_ms:.2f} ms, 304 {cheap_ms:.2f} ms; "
          f"ratio {full_ms / cheap_ms:.2f}")


if __name__ == "__main__":
    main()
