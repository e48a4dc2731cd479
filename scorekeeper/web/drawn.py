"""Parts of a page drawn from a game's state, kept with what they read of it, so that they are
drawn again only when that changed: the table page's entry forms look the same from one hand to
the next (the hand's number and who deals are drawn apart, in the game's `head` part), and a
hand's answer puts in the forms drawn before (issue 29: a fifth of an entry's time).

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
    """A game's state that notes what is read of it, down to each value inside (`log`: by path,
    what was seen there); reading all its keys (iterating) notes them."""

    def __init__(self, data: Mapping[str, Any], path: tuple[Any, ...] = (),
                 log: dict[tuple[Any, ...], Any] | None = None) -> None:
        self._data, self._path = data, path
        self.log: dict[tuple[Any, ...], Any] = {} if log is None else log

    def __getitem__(self, key: Any) -> Any:
        path = (*self._path, key)
        if key not in self._data:
            self.log[path] = _MISSING
            raise KeyError(key)
        value = self._data[key]
        self.log[path] = _seen(value)
        return _wrapped(value, path, self.log)

    def __iter__(self) -> Iterator[Any]:
        self.log[(*self._path, "<keys>")] = tuple(self._data)
        return iter(self._data)

    def __len__(self) -> int:
        self.log[(*self._path, "<keys>")] = tuple(self._data)
        return len(self._data)

    def __repr__(self) -> str:
        self.log[(*self._path, "<all>")] = ("all", repr(self._data))
        return repr(self._data)


class _ReadList(Sequence[Any]):
    """A list inside the state, noting what is read of it as `Reads` does."""

    def __init__(self, data: list[Any] | tuple[Any, ...], path: tuple[Any, ...],
                 log: dict[tuple[Any, ...], Any]) -> None:
        self._data, self._path, self.log = data, path, log

    def __len__(self) -> int:
        self.log[(*self._path, "<len>")] = len(self._data)
        return len(self._data)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self))[index]]
        index = range(len(self))[index]  # IndexError as a list's; from the end: its length read
        value = self._data[index]
        self.log[(*self._path, index)] = _seen(value)
        return _wrapped(value, (*self._path, index), self.log)

    def __repr__(self) -> str:
        self.log[(*self._path, "<all>")] = ("all", repr(self._data))
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
    if last == "<keys>":
        return isinstance(value, Mapping) and tuple(value) == seen
    if last == "<len>":
        return isinstance(value, list | tuple) and len(value) == seen
    if last == "<all>":
        return ("all", repr(value)) == seen
    if isinstance(value, Mapping):
        return _seen(value[last]) == seen if last in value else seen == _MISSING
    try:
        return _seen(value[last]) == seen
    except (IndexError, TypeError):
        return False


@dataclass(frozen=True)
class Drawing:
    html: str
    read: dict[tuple[Any, ...], Any]  # what it read of the state (`Reads.log`)
    inputs: Any  # what else it read that the key does not name: None, or the caller's `inputs()`
    also: Any  # what the caller keeps with it


class Drawings:
    """The last drawings of this process, by key."""

    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self._kept: OrderedDict[Any, Drawing] = OrderedDict()
        self._lock = threading.Lock()

    def drawing(self, key: Any, state: Mapping[str, Any],
                draw: Callable[[Reads], tuple[str, Any, Any]],
                inputs: Callable[[], Any]) -> Drawing:
        """The drawing kept for `key` if what it read of `state` is still so, and `inputs()`
        (if it read them) still gives what it did; else `draw(reads)` anew (its HTML, `inputs()`
        if it read them or None, and what to keep with it), kept unless it read all the state."""
        kept = self._kept.get(key)
        if kept is not None and all(_still(state, path, seen) for path, seen in kept.read.items()) \
                and (kept.inputs is None or kept.inputs == inputs()):
            return kept
        reads = Reads(state)
        html, read_inputs, also = draw(reads)
        drawing = Drawing(html, reads.log, read_inputs, also)
        if len(reads.log) <= MOST_READS:
            with self._lock:
                self._kept[key] = drawing
                self._kept.move_to_end(key)
                while len(self._kept) > self.size:
                    self._kept.popitem(last=False)
        return drawing

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
