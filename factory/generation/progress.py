"""Progress of the commands that take more than a few seconds (generate, validate, evaluate,
audit, import): a line on stderr saying which step runs, how far it is (done of total) and a
note (on model runs: calls, tokens and cost so far), erased when the command ends.

Nothing at all is drawn when stderr is not a terminal, so a log, a pipe or a test gets only
the command's own lines. The work reports through `Steps`, which does nothing when no display
is attached, so library code reports unconditionally and stays quiet when called as a library.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console


class Steps:
    """What a long command reports: the step it is in, how much of it is done, a note."""

    def __init__(self, display: Any = None):
        self._display = display  # a rich Progress, or None: report nothing
        self._task: Any = None
        self._lock = threading.Lock()  # model runs report from worker threads
        self._done = 0

    def step(self, description: str, total: int | None = None, note: str = "") -> None:
        """Begin a step: a spinner when `total` is None, else a bar counting to it."""
        with self._lock:
            self._done = 0
            if self._display is None:
                return
            if self._task is not None:
                self._display.remove_task(self._task)
            self._task = self._display.add_task(description, total=total, note=note)

    def update(self, done: int, total: int | None = None, note: str | None = None) -> None:
        with self._lock:
            self._done = done
            if self._display is None or self._task is None:
                return
            fields: dict[str, Any] = {"completed": done}
            if total is not None:
                fields["total"] = total
            if note is not None:
                fields["note"] = note
            self._display.update(self._task, **fields)

    def advance(self, amount: int = 1, note: str | None = None) -> None:
        with self._lock:
            done = self._done + amount
        self.update(done, note=note)

    def counter(self, note: Callable[[], str] | None = None) -> Callable[[int], None]:
        """A callback for work that counts what it finished (`done` so far), with a fresh note."""
        return lambda done: self.update(done, note=note() if note else None)


QUIET = Steps()


@contextmanager
def progress(console: Console, description: str, total: int | None = None, note: str = "") -> Iterator[Steps]:
    """A progress line on `console` (stderr) for the duration of the block; none when the
    console is not a terminal."""
    if not console.is_terminal:
        yield Steps()
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
    from rich.text import Text

    class Counted(MofNCompleteColumn):
        """done/total, or nothing for a step that has no total (its spinner says it runs)."""

        def render(self, task):  # type: ignore[no-untyped-def]
            return super().render(task) if task.total is not None else Text("")

    display = Progress(SpinnerColumn(), TimeElapsedColumn(), TextColumn("[bold]{task.description}"), BarColumn(),
                       Counted(), TextColumn("{task.fields[note]}"), console=console, transient=True)
    with display:
        steps = Steps(display)
        steps.step(description, total, note)
        yield steps
