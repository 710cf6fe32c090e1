"""A real uvicorn server in a thread of the test process, and raw WebSocket clients that misbehave.

What the test client cannot show needs real sockets: kernel buffers filling up under a client
that never reads, binary frames, invalid UTF-8. The server is run with the same uvicorn settings
as ``mafioso serve`` (:func:`mafioso.server.serve.uvicorn_config`), on a free loopback port.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import socket
import struct
import threading
import time
from collections.abc import Iterator
from typing import Any

import uvicorn

from mafioso.server.serve import bind, uvicorn_config


@contextlib.contextmanager
def live_server(app: Any) -> Iterator[str]:
    """Serve ``app`` on ``127.0.0.1`` until the block ends; yields ``http://127.0.0.1:PORT``."""
    listener = bind("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn_config(app))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=20)
        listener.close()


def frame(payload: bytes, opcode: int = 1) -> bytes:
    """One masked client frame (``opcode`` 1: text, 2: binary)."""
    mask = os.urandom(4)
    size = len(payload)
    if size < 126:
        header = struct.pack("!BB", 0x80 | opcode, 0x80 | size)
    elif size < 65_536:
        header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, size)
    else:
        header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, size)
    return header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


class RawSocket:
    """A WebSocket client written by hand: it sends what it is told and reads only when asked."""

    def __init__(self, base: str, receive_buffer: int | None = None) -> None:
        port = int(base.rsplit(":", 1)[1])
        self.sock = socket.socket()
        if receive_buffer is not None:  # before connecting, so the window stays small
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        response = b""
        while b"\r\n\r\n" not in response:
            chunk = self.sock.recv(1)
            assert chunk, "the server closed the connection during the handshake"
            response += chunk
        assert response.startswith(b"HTTP/1.1 101"), response
        self.buffer = b""

    def send(self, payload: bytes, opcode: int = 1) -> None:
        self.sock.sendall(frame(payload, opcode))

    def send_json(self, message: dict[str, Any]) -> None:
        self.send(json.dumps(message).encode())

    def _read(self, count: int) -> bytes:
        while len(self.buffer) < count:
            chunk = self.sock.recv(65_536)
            if not chunk:
                raise ConnectionError("closed")
            self.buffer += chunk
        out, self.buffer = self.buffer[:count], self.buffer[count:]
        return out

    def receive(self, timeout: float = 10) -> tuple[int, bytes]:
        """The next frame from the server: ``(opcode, payload)`` (8 is a close frame)."""
        self.sock.settimeout(timeout)
        first, second = self._read(2)
        size = second & 0x7F
        if size == 126:
            size = struct.unpack("!H", self._read(2))[0]
        elif size == 127:
            size = struct.unpack("!Q", self._read(8))[0]
        return first & 0x0F, self._read(size)

    def receive_json(self, timeout: float = 10) -> Any:
        opcode, payload = self.receive(timeout)
        assert opcode == 1, (opcode, payload)
        return json.loads(payload)

    def is_cut_off(self, timeout: float = 10) -> bool:
        """Read everything the server left; ``True`` once it ends (closed or reset)."""
        self.sock.settimeout(timeout)
        try:
            while self.sock.recv(1 << 20):
                pass
        except TimeoutError:
            return False
        except OSError:
            return True
        return True

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()
