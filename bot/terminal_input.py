"""Typed lines at the terminal table, read so that Ctrl-C is never lost."""

from __future__ import annotations

import contextlib
import os
import select
import signal
from typing import TextIO


class TerminalInput:
    """Reads typed lines so that Ctrl-C is never lost. With ``input()``, a Ctrl-C that lands
    between printing the prompt and blocking on the read waits for the next Enter; here the
    wait also watches the signal wake-up pipe, so the interrupt is raised at once."""

    def __init__(self, out: TextIO, fd: int = 0) -> None:
        self.out = out
        self.fd = fd
        self.pending = b""
        self.wake_read, wake_write = os.pipe()
        os.set_blocking(self.wake_read, False)
        os.set_blocking(wake_write, False)
        self.wake_write = wake_write
        self.previous = signal.set_wakeup_fd(wake_write, warn_on_full_buffer=False)

    def __call__(self, prompt: str) -> str:
        print(prompt, end="", file=self.out, flush=True)
        while b"\n" not in self.pending:
            ready, _, _ = select.select([self.fd, self.wake_read], [], [])
            if self.wake_read in ready:
                # A signal arrived: its handler (KeyboardInterrupt for Ctrl-C) runs as soon as
                # this returns to Python; any other signal just wakes the loop.
                with contextlib.suppress(BlockingIOError):
                    os.read(self.wake_read, 512)
            if self.fd in ready:
                chunk = os.read(self.fd, 4096)
                if not chunk:
                    if not self.pending:
                        raise EOFError
                    chunk = b"\n"
                self.pending += chunk
        line, _, self.pending = self.pending.partition(b"\n")
        return line.decode("utf-8", errors="replace")

    def close(self) -> None:
        signal.set_wakeup_fd(self.previous)
        os.close(self.wake_read)
        os.close(self.wake_write)
