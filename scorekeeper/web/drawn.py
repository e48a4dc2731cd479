"""Parts of a page drawn from a game's state, kept with what they read of it, so that they are
drawn again only when that changed: the table page's entry forms look the same from one hand to
the next (the hand's number and who deals are drawn apart, in the game's `head` part), and a
hand's answer puts in the forms drawn before (issue 29: a fifth of an entry's time). A page that
reads no state (the tournament's ranking, by its version) is kept by its key alone.

Sound because everything a drawing reads of the state goes through `Reads`, down to each value
inside it, and everything else it depends on is in its key or its inputs (the caller's). Per
app, the last `SIZE` drawings; a drawing that read more than `MOST_READS` values is not kept."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

SIZE = 512
MOST_READS = 500  # a drawing that read more of the state is drawn anew each time
_MISSING = ("missing",)
# what a path ends in where no key was read but a mapping's keys, a list's length, or the
# whole of either (its repr): objects, no key of the state's can be one
_KEYS, _LEN, _ALL = object(), object(), object()


def _seen(value: Any) -> Any:
    """What a read saw: that a container is there (its contents are read apart), else the value
    (with its type: True is not 1)."""
    if isinstance(value, Mapping):
        return ("mapping",)
    if isinstance(value, list | tuple):
        return ("list",)
    return (type(value).__name__, value)


def _wrapped(value: Any, path: tuple[Any, ...], log: dict[tuple[Any, ...], Any]) -> Any:
    if isinstance(value, Mapping):
        return Reads(value, path, log)
    if isinstance(value, list | tuple):
        return _ReadList(value, path, log)
    return value


class Reads(Mapping[str, Any]):
    """A game's state that notes what is read of it, down to each value inside (`_log`: by
    path, what was seen there); reading all its keys (iterating) notes them. Its attributes are
    a Mapping's only (a template's `state.x` is the key "x")."""

    def __init__(self, data: Mapping[str, Any], path: tuple[Any, ...] = (),
                 log: dict[tuple[Any, ...], Any] | None = None) -> None:
        self._data, self._path = data, path
        self._log: dict[tuple[Any, ...], Any] = {} if log is None else log

    def __getitem__(self, key: Any) -> Any:
        path = (*self._path, key)
        if key not in self._data:
            self._log[path] = _MISSING
            raise KeyError(key)
        value = self._data[key]
        self._log[path] = _seen(value)
        return _wrapped(value, path, self._log)

    def __iter__(self) -> Iterator[Any]:
        self._log[(*self._path, _KEYS)] = tuple(self._data)
        return iter(self._data)

    def __len__(self) -> int:
        self._log[(*self._path, _KEYS)] = tuple(self._data)
        return len(self._data)

    def __repr__(self) -> str:
        self._log[(*self._path, _ALL)] = repr(self._data)
        return repr(self._data)


class _ReadList(Sequence[Any]):
    """A list inside the state, noting what is read of it as `Reads` does."""

    def __init__(self, data: list[Any] | tuple[Any, ...], path: tuple[Any, ...],
                 log: dict[tuple[Any, ...], Any]) -> None:
        self._data, self._path, self._log = data, path, log

    def __len__(self) -> int:
        self._log[(*self._path, _LEN)] = len(self._data)
        return len(self._data)

    def __eq__(self, other: object) -> bool:  # as a list's: what it holds, each item read
        return list(self) == other

    __hash__ = None  # type: ignore[assignment]  # as a list's

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self))[index]]
        index = range(len(self))[index]  # IndexError as a list's; from the end: its length read
        value = self._data[index]
        self._log[(*self._path, index)] = _seen(value)
        return _wrapped(value, (*self._path, index), self._log)

    def __repr__(self) -> str:
        self._log[(*self._path, _ALL)] = repr(self._data)
        return repr(self._data)


def _still(state: Mapping[str, Any], path: tuple[Any, ...], seen: Any) -> bool:
    """Whether reading `path` of `state` sees what `seen` says it did."""
    value: Any = state
    for step in path[:-1]:
        try:
            value = value[step]
        except (KeyError, IndexError, TypeError):
            return False
    last = path[-1]
    if last is _KEYS:
        return isinstance(value, Mapping) and tuple(value) == seen
    if last is _LEN:
        return isinstance(value, list | tuple) and len(value) == seen
    if last is _ALL:
        return repr(value) == seen
    if isinstance(value, Mapping):
        return _seen(value[last]) == seen if last in value else seen == _MISSING
    try:
        return _seen(value[last]) == seen
    except (IndexError, TypeError):
        return False


@dataclass(frozen=True)
class Drawing:
    html: str
    read: dict[tuple[Any, ...], Any]  # what it read of the state (`Reads._log`)
    inputs: Any  # what else it read that the key does not name: None, or the caller's `inputs()`
    extra: Any  # what the caller keeps with it


class Drawings:
    """The last drawings of an app, by key."""

    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self._kept: OrderedDict[Any, Drawing] = OrderedDict()
        self._lock = threading.Lock()

    def drawing(self, key: Any, state: Mapping[str, Any],
                draw: Callable[[Reads], tuple[str, Any, Any]],
                inputs: Callable[[], Any]) -> Drawing:
        """The drawing kept for `key` if what it read of `state` is still so, and `inputs()`
        (if it read them) still gives what it did; else `draw(reads)` anew (its HTML, `inputs()`
        if it read them or None, and what to keep with it), kept unless it read more than
        MOST_READS values."""
        kept = self._kept.get(key)
        if kept is not None and all(_still(state, path, seen) for path, seen in kept.read.items()) \
                and (kept.inputs is None or kept.inputs == inputs()):
            with self._lock:
                if key in self._kept:
                    self._kept.move_to_end(key)
            return kept
        reads = Reads(state)
        html, read_inputs, extra = draw(reads)
        drawing = Drawing(html, reads._log, read_inputs, extra)
        if len(drawing.read) <= MOST_READS:
            with self._lock:
                self._kept[key] = drawing
                self._kept.move_to_end(key)
                while len(self._kept) > self.size:
                    self._kept.popitem(last=False)
        return drawing

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
