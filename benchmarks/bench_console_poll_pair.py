"""Paired 304 poll: two servers (two source trees) polled alternately in one run.

Reports per server the median time of a 304 poll and the server's CPU per poll (from
/proc/<pid>/stat), with ratios new/old. Usage:
    python benchmarks/bench_console_poll_pair.py NEW_SRC OLD_SRC --rounds 300
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

NAMES = ["Anna", "Boris", "Chen", "Dana", "Emil", "Fay", "Gus", "Hana", "Ivo", "Jan"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(src: str, folder: Path) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    env = {**os.environ, "PYTHONPATH": src}
    proc = subprocess.Popen([sys.executable, "-m", "mafioso", "serve", "--host", "127.0.0.1", "--port", str(port),
                             "--db", str(folder / "bench.sqlite3")], stdout=subprocess.DEVNULL, env=env)
    deadline = time.monotonic() + 30
    while True:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return proc, port
        if time.monotonic() > deadline:
            raise SystemExit("no start")
        time.sleep(0.1)


def post(c: http.client.HTTPConnection, path: str, body: dict[str, object], tag: str = "") -> tuple[int, str, bytes]:
    headers = {"Content-Type": "application/json"}
    if tag:
        headers["If-None-Match"] = tag
    c.request("POST", path, json.dumps(body), headers)
    r = c.getresponse()
    return r.status, r.getheader("ETag") or "", r.read()


def cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def setup(port: int) -> list[tuple[http.client.HTTPConnection, str, str]]:
    f = http.client.HTTPConnection("127.0.0.1", port)
    s = {"edition": "sport", "names": NAMES, "seed": 7, "phones": list(range(1, 11))}
    token = json.loads(post(f, "/api/console", {"setup": s})[2])["token"]
    phones = json.loads(post(f, "/api/console/phones", {"token": token})[2])["phones"]
    out = []
    for p in phones:
        pass_ = p["link"].split("#c=")[1]
        c = http.client.HTTPConnection("127.0.0.1", port)
        out.append((c, pass_, post(c, "/api/console/phone/state", {"token": pass_})[1]))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("new")
    ap.add_argument("old")
    ap.add_argument("--rounds", type=int, default=300)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d1, tempfile.TemporaryDirectory() as d2:
        servers = {"new": start(a.new, Path(d1)), "old": start(a.old, Path(d2))}
        try:
            links = {k: setup(port) for k, (_p, port) in servers.items()}
            times: dict[str, list[float]] = {"new": [], "old": []}
            spent = {"new": 0.0, "old": 0.0}
            for r in range(a.rounds):
                for k in (("new", "old") if r % 2 else ("old", "new")):
                    pid = servers[k][0].pid
                    c0 = cpu(pid)
                    for c, pass_, tag in links[k]:
                        t = time.perf_counter()
                        status, _t, _b = post(c, "/api/console/phone/state", {"token": pass_}, tag)
                        times[k].append(time.perf_counter() - t)
                        assert status == 304, status
                    spent[k] += cpu(pid) - c0
        finally:
            for p, _ in servers.values():
                p.terminate()
                p.wait()
    n = a.rounds * 10
    for k in ("new", "old"):
        print(f"{k}: median 304 poll {statistics.median(times[k]) * 1000:.3f} ms, "
              f"p90 {statistics.quantiles(times[k], n=10)[-1] * 1000:.3f} ms, server CPU/poll {spent[k] / n * 1000:.3f} ms")
    print(f"ratio new/old: median {statistics.median(times['new']) / statistics.median(times['old']):.2f}, "
          f"CPU {spent['new'] / max(spent['old'], 1e-9):.2f}")
    print("load average:", Path("/proc/loadavg").read_text().strip())


if __name__ == "__main__":
    main()
