"""Simple charts as inline SVG for a phone screen: lines over time and bars, no JavaScript.

The functions are pure: they take already translated labels and numbers and return the markup.
Every chart is 360 units wide (one phone column) and scales to the width of its container.
"""

from __future__ import annotations

import html
import math
import re
import zlib
from collections.abc import Sequence

from markupsafe import Markup

__all__ = ["bar_chart", "line_chart"]

WIDTH = 360
HEIGHT = 200  # without the legend
FONT = 12  # px in viewBox units; never below 11
NARROW = frozenset(".,:;'!|iIjlft ()[]\u00a0\u2009\u202f")
WIDE = frozenset("MWmw@%€—")
INK = "#1d2421"
GRID = "#d8d0c0"
GOOD = "#0b6e4f"
BAD = "#b3261e"
HALO = "#ffffff"
# Okabe-Ito based, dark enough on a light background; dashes tell series apart once it repeats.
PALETTE = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#6a3d9a", INK)
DASHES = ("", "7 4", "2 3")
FONT_FAMILY = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"
MAX_X_LABELS = 6
MAX_BAR_VALUES = 12
MAX_DOTS = 60
LIMIT = 1e150  # values beyond are drawn at the limit, so spans never overflow
TOP, BOTTOM, RIGHT = 10, 26, 12
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")

Point = tuple[str, float]


def line_chart(series: Sequence[tuple[str, Sequence[Point]]], *, label: str, unit: str = "",
               zero_line: bool = True, highlight: float | None = None, empty: str = "–",
               decimal: str = ",") -> Markup:
    """One polyline with dots per named series of (x-label, value) points.

    Series are aligned by position; the x labels come from the longest series. A single series
    with `zero_line` is coloured by sign (green above 0, red below); several series take colours
    from PALETTE and get a legend. `highlight` draws a dashed line at that value (e.g. a target).
    Non-finite values are left out.
    """
    named = [(str(name), _points(points)) for name, points in series]
    values = [v for _, points in named for _, v in points if v is not None]
    if not values:
        return _empty(label, empty)
    mark = _clamp(highlight)
    ticks = _value_ticks(values, mark)
    legend, legend_height = _legend([name for name, _ in named]) if len(named) > 1 else ([], 0)
    svg = _Frame(label, ticks, unit, decimal, top=TOP + legend_height)
    longest = max((points for _, points in named), key=len)  # the first of the longest
    xs, step = _x_positions(svg, len(longest))
    parts = [*svg.open(), *legend, *svg.grid(), *svg.x_labels(xs, [x for x, _ in longest]),
             *_guides(svg, zero_line, mark, unit, decimal)]
    signed = len(named) == 1 and zero_line
    dots = len(longest) <= MAX_DOTS and step >= 5
    for i, (_, points) in enumerate(named):
        parts += _series(svg, _pen(i), points, xs, signed=signed, dots=dots)
    return Markup("".join(parts) + "</svg>")


def _points(points: Sequence[Point]) -> list[tuple[str, float | None]]:
    """The points with their x labels as text and their values clamped (None: not drawn)."""
    return [(str(x), _clamp(v)) for x, v in points]


def _value_ticks(values: list[float], mark: float | None) -> list[float]:
    """The y ticks for the values and the highlight: whole numbers when all of them are."""
    extent = values if mark is None else [*values, mark]
    return _ticks(min(extent), max(extent), all(v.is_integer() for v in extent))


def _guides(svg: _Frame, zero_line: bool, mark: float | None, unit: str, decimal: str
            ) -> list[str]:
    """The zero line (when asked for and 0 is on the scale) and the highlight line."""
    parts = []
    if zero_line and svg.ticks[0] <= 0 <= svg.ticks[-1]:
        parts.append(svg.zero_line())
    if mark is not None:
        parts += svg.highlight(mark, _value_text(mark, unit, decimal))
    return parts


def _x_positions(svg: _Frame, n: int) -> tuple[list[float], float]:
    """Where n points go across the plot, a little in from its edges, and the step between
    them (0 for a single point, drawn in the middle)."""
    if n == 1:
        return [svg.left + svg.plot_width / 2], 0.0
    inner = min(12.0, svg.plot_width / 8)
    step = (svg.plot_width - 2 * inner) / (n - 1)
    return [svg.left + inner + i * step for i in range(n)], step


def _pen(index: int) -> tuple[str, str]:
    """The colour and dashes of the series at `index`: the palette, then dashed when it
    repeats."""
    return PALETTE[index % len(PALETTE)], DASHES[index // len(PALETTE) % len(DASHES)]


def _series(svg: _Frame, pen: tuple[str, str], points: list[tuple[str, float | None]],
            xs: list[float], *, signed: bool, dots: bool) -> list[str]:
    """One series: its line through the points that have a value, and a dot on each of them
    (`dots`) or on the last only. `signed`: green above the zero line, red below."""
    drawn = [(x, svg.y(v), v) for x, (_, v) in zip(xs, points, strict=False) if v is not None]
    if not drawn:
        return []
    coords = [(x, y) for x, y, _ in drawn]
    color, dash = pen
    stroke, defs = _sign_stroke(svg, [v for *_, v in drawn], coords) if signed else (color, [])
    return [*defs, _polyline(coords, stroke, dash),
            *(_dot(x, y, _sign_color(v) if signed else color)
              for x, y, v in (drawn if dots else drawn[-1:]))]


def _sign_color(value: float) -> str:
    return GOOD if value >= 0 else BAD


def _polyline(coords: list[tuple[float, float]], stroke: str, dash: str) -> str:
    attrs = f'stroke-dasharray="{dash}" ' if dash else ""
    return (f'<polyline class="series" fill="none" stroke="{stroke}" stroke-width="2.5" '
            f'stroke-linejoin="round" stroke-linecap="round" {attrs}'
            f'points="{" ".join(f"{_n(x)},{_n(y)}" for x, y in coords)}"/>')


def _dot(x: float, y: float, fill: str) -> str:
    return f'<circle class="dot" cx="{_n(x)}" cy="{_n(y)}" r="3.5" fill="{fill}"/>'


def bar_chart(bars: Sequence[Point], *, label: str, unit: str = "", empty: str = "–",
              decimal: str = ",", color: str | None = None) -> Markup:
    """Vertical bars of (x-label, value) from a zero line; negative bars go below it.

    Bars are green when positive and red when negative unless `color` is given. Values are written
    at the bar ends when there are at most MAX_BAR_VALUES bars and they fit. Non-finite values
    draw no bar.
    """
    items = _points(bars)
    values = [v for _, v in items if v is not None]
    if not values:
        return _empty(label, empty)
    integers = all(v.is_integer() for v in values)
    ticks = _ticks(min(min(values), 0.0), max(max(values), 0.0), integers)
    band = (WIDTH - RIGHT - _Frame.left_margin(ticks, unit, decimal)) / len(items)
    texts = _bar_texts([v for _, v in items], 0 if integers else 2, unit, decimal, band)
    below = FONT + 2 if texts and min(values) < 0 else 0  # room for values under negative bars
    svg = _Frame(label, ticks, unit, decimal, top=TOP + 8 * bool(texts), below=below)
    xs = [svg.left + band * (i + 0.5) for i in range(len(items))]
    parts = [*svg.open(), *svg.grid(), *svg.x_labels(xs, [x for x, _ in items])]
    width = max(band * 0.7, min(band, 1.0))
    for i, (_, v) in enumerate(items):
        if v is not None:
            fill = html.escape(color) if color else _sign_color(v)
            parts += _bar(svg, xs[i], width, v, fill, texts[i] if texts else "")
    parts.append(svg.zero_line())
    return Markup("".join(parts) + "</svg>")


def _bar_texts(values: list[float | None], decimals: int, unit: str, decimal: str,
               band: float) -> list[str]:
    """What to write at each bar's end: the value with its unit, or without it where that is
    too wide for the bars, or nothing (too wide, or more than MAX_BAR_VALUES bars)."""
    if len(values) > MAX_BAR_VALUES:
        return []
    bare = [_number(v, decimals, decimal) if v is not None else "" for v in values]
    for texts in ([_suffix(t, unit) if t else "" for t in bare], bare):
        if max(map(_width, texts)) <= band - 2:
            return texts
    return []


def _bar(svg: _Frame, x: float, width: float, value: float, fill: str, text: str) -> list[str]:
    """One bar from the zero line to its value, with the value written at its end."""
    y, zero = svg.y(value), svg.y(0)
    parts = [f'<rect class="bar" x="{_n(x - width / 2)}" y="{_n(min(y, zero))}" '
             f'width="{_n(width)}" height="{_n(abs(zero - y))}" fill="{fill}"/>']
    if text:
        ty = y - 4 if value >= 0 else y + FONT + 1
        parts.append(_text(x, ty, text, 'class="value" text-anchor="middle"'))
    return parts


class _Frame:
    """Plot area, y scale and the shared pieces of a chart: axes, grid, x labels."""

    def __init__(self, label: str, ticks: list[float], unit: str, decimal: str, *,
                 top: float, below: float = 0) -> None:
        self.label, self.ticks = label, ticks
        self.tick_texts = self.tick_labels(ticks, unit, decimal)
        self.left = self.left_margin(ticks, unit, decimal)
        self.right = WIDTH - RIGHT
        self.top = top
        self.bottom = top + HEIGHT - TOP - BOTTOM - below
        self.label_y = self.bottom + below + 16
        self.height = self.bottom + below + BOTTOM
        self.plot_width = self.right - self.left

    @staticmethod
    def tick_labels(ticks: list[float], unit: str, decimal: str) -> list[str]:
        decimals = _decimals(ticks[1] - ticks[0])
        return [_suffix(_number(t, decimals, decimal), unit) for t in ticks]

    @classmethod
    def left_margin(cls, ticks: list[float], unit: str, decimal: str) -> float:
        widest = max(_width(t) for t in cls.tick_labels(ticks, unit, decimal))
        return min(max(widest + 8, 24.0), WIDTH * 0.4)

    def y(self, value: float) -> float:
        lo, hi = self.ticks[0], self.ticks[-1]
        return self.top + (hi - value) / (hi - lo) * (self.bottom - self.top)

    def open(self) -> list[str]:
        label = _esc(self.label)
        return [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" '
                f'viewBox="0 0 {WIDTH} {_n(self.height)}" width="100%" role="img" '
                f'aria-label="{label}" font-family="{FONT_FAMILY}" font-size="{FONT}" '
                f'fill="{INK}"><title>{label}</title>']

    def grid(self) -> list[str]:
        parts = []
        for tick, text in zip(self.ticks, self.tick_texts, strict=True):
            y = self.y(tick)
            parts.append(_line(self.left, y, self.right, y, GRID, 'class="grid"'))
            parts.append(_text(self.left - 5, y + 4, text, 'class="tick" text-anchor="end"'))
        return parts

    def x_labels(self, xs: list[float], labels: list[str]) -> list[str]:
        texts = [_shorten(t, 14) for t in labels]
        widths = [_width(t) for t in texts]
        centers = [_clamp_center(x, w) for x, w in zip(xs, widths, strict=True)]
        return [_text(centers[i], self.label_y, texts[i], 'class="xlabel" text-anchor="middle"')
                for i in _thin(centers, widths)]

    def zero_line(self) -> str:
        return _line(self.left, self.y(0), self.right, self.y(0), INK, 'class="zero"')

    def highlight(self, value: float, text: str) -> list[str]:
        """A dashed line at value, named on the y axis unless a tick already says it."""
        y = self.y(value)
        dashed = 'class="highlight" stroke-dasharray="6 4"'
        parts = [_line(self.left, y, self.right, y, INK, dashed)]
        if any(math.isclose(value, t, rel_tol=1e-9, abs_tol=1e-12) for t in self.ticks):
            return parts
        if (_width(text) * 1.1 <= self.left - 6
                and all(abs(self.y(t) - y) >= FONT + 1 for t in self.ticks)):
            parts.append(_text(self.left - 5, y + 4, text, 'class="highlight-label" '
                               'text-anchor="end" font-weight="700"'))
        else:  # at the right end, above the line if there is room
            ty = y - 5 if y - 5 - FONT >= self.top else y + FONT + 2
            parts.append(_text(self.right - 2, ty, text, f'class="highlight-label" '
                               f'text-anchor="end" stroke="{HALO}" stroke-width="3" '
                               f'paint-order="stroke"'))
        return parts


def _empty(label: str, empty: str) -> Markup:
    text = _esc(label)
    return Markup(f'<svg xmlns="http://www.w3.org/2000/svg" class="chart chart-empty" '
                  f'viewBox="0 0 {WIDTH} 64" width="100%" role="img" aria-label="{text}" '
                  f'font-family="{FONT_FAMILY}" font-size="{FONT}" fill="{INK}">'
                  f'<title>{text}</title>'
                  f'<text x="4" y="18" font-weight="600">{_esc(_shorten(label, 48))}</text>'
                  f'<text class="empty" x="{WIDTH / 2:g}" y="46" text-anchor="middle" '
                  f'font-size="14">{_esc(empty)}</text></svg>')


def _legend(names: list[str]) -> tuple[list[str], int]:
    """Legend entries in rows above the plot, and the height they take."""
    parts, x, row = [], 4.0, 0
    for i, name in enumerate(names):
        text = _shorten(name, 18)
        width = 22 + _width(text)
        if x > 4 and x + width > WIDTH - 4:
            x, row = 4.0, row + 1
        y = 12 + row * 18
        color, dash = _pen(i)
        attrs = 'class="legend" stroke-width="2.5"' + (f' stroke-dasharray="{dash}"' * bool(dash))
        parts.append(_line(x, y - 4, x + 16, y - 4, color, attrs))
        parts.append(_text(x + 20, y, text, 'class="legend-label"'))
        x += width + 12
    return parts, (row + 1) * 18 + 4


def _sign_stroke(svg: _Frame, values: list[float], coords: list[tuple[float, float]],
                 ) -> tuple[str, list[str]]:
    """A stroke that is green above the zero line and red below, as a paint and its defs."""
    if all(v >= 0 for v in values):
        return GOOD, []
    if all(v <= 0 for v in values):
        return BAD, []
    zero = (svg.y(0) - svg.top) / (svg.bottom - svg.top)
    key = f"{svg.top},{svg.bottom},{zero},{coords}".encode()
    ident = f"chart-sign-{zlib.crc32(key):08x}"
    return f"url(#{ident})", [
        f'<defs><linearGradient id="{ident}" gradientUnits="userSpaceOnUse" x1="0" '
        f'y1="{_n(svg.top)}" x2="0" y2="{_n(svg.bottom)}">'
        f'<stop offset="{zero:.4f}" stop-color="{GOOD}"/>'
        f'<stop offset="{zero:.4f}" stop-color="{BAD}"/></linearGradient></defs>']


def _ticks(lo: float, hi: float, integers: bool) -> list[float]:
    """3-5 round values covering lo..hi, steps of 1, 2 or 5 times a power of ten."""
    if hi - lo <= 0:  # all values equal: a band around them
        pad = abs(lo) * 0.1 or 1.0
        pad = max(pad, 1.0) if integers else pad
        lo, hi = lo - pad, hi + pad
    exponent = math.floor(math.log10((hi - lo) / 4))
    if integers:
        exponent = max(exponent, 0)
    for e in range(exponent - 1, exponent + 3):
        for m in (1, 2, 5):
            step = m * 10.0**e
            if integers and step < 1:
                continue
            first, last = math.floor(lo / step), math.ceil(hi / step)
            if last - first <= 4:
                ticks = [k * step for k in range(first, last + 1)]
                while len(ticks) < 3:
                    ticks.append(ticks[-1] + step)
                return ticks
    raise AssertionError("unreachable: the largest step always fits")  # pragma: no cover


def _thin(centers: list[float], widths: list[float]) -> list[int]:
    """Indexes of the x labels to show: at most MAX_X_LABELS, evenly spaced, never overlapping,
    the first and if possible the last one included."""
    n = len(centers)
    stride = max(1, math.ceil(n / MAX_X_LABELS))
    while stride < n:
        chosen = list(range(0, n, stride))
        if chosen[-1] != n - 1:
            if n - 1 - chosen[-1] < stride / 2 and len(chosen) > 1:
                chosen[-1] = n - 1
            else:
                chosen.append(n - 1)
        if len(chosen) <= MAX_X_LABELS and all(
                centers[b] - centers[a] >= (widths[a] + widths[b]) / 2 + 4
                for a, b in zip(chosen, chosen[1:], strict=False)):
            return chosen
        stride += 1
    if n > 1 and centers[-1] - centers[0] >= (widths[0] + widths[-1]) / 2 + 4:
        return [0, n - 1]
    return [0]


def _clamp(value: float | None) -> float | None:
    """The value as a float within ±LIMIT, or None when it is not a finite number."""
    if value is None:
        return None
    number = float(value)
    if not math.isfinite(number):
        return None
    return max(-LIMIT, min(LIMIT, number))


def _clamp_center(x: float, width: float) -> float:
    return min(max(x, 1 + width / 2), WIDTH - 1 - width / 2)


def _decimals(step: float) -> int:
    return max(0, -math.floor(math.log10(step) + 1e-9))


def _number(value: float, decimals: int, decimal: str) -> str:
    """A number with `decimal` as decimal mark, grouped thousands and a real minus sign."""
    if abs(value) >= 1e12:
        mantissa, exponent = f"{abs(value):.3e}".split("e")
        text = f"{mantissa.rstrip('0').rstrip('.')}e{int(exponent)}".replace(".", decimal)
    else:
        thousands = "." if decimal == "," else ","
        text = f"{abs(value):,.{decimals}f}"
        text = text.replace(",", "\0").replace(".", decimal).replace("\0", thousands)
    return "−" + text if value < 0 and any(c in "123456789" for c in text) else text


def _value_text(value: float, unit: str, decimal: str) -> str:
    return _suffix(_number(value, 0 if value.is_integer() else 2, decimal), unit)


def _suffix(text: str, unit: str) -> str:
    return f"{text}\u00a0{unit}" if unit else text


def _width(text: str) -> float:
    """Estimated width of text at FONT size, a little generous so labels never touch."""
    ems = sum(0.32 if c in NARROW else 0.9 if c in WIDE else 0.72 if c.isupper() else 0.6
              for c in text)
    return ems * FONT


def _shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _esc(text: str) -> str:
    """Text safe in XML and HTML: escaped, control characters replaced by spaces."""
    return html.escape(_CONTROL.sub(" ", str(text)))


def _n(value: float) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _line(x1: float, y1: float, x2: float, y2: float, stroke: str, attrs: str = "") -> str:
    return (f'<line {attrs} x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" '
            f'stroke="{stroke}"/>')


def _text(x: float, y: float, text: str, attrs: str = "") -> str:
    return f'<text {attrs} x="{_n(x)}" y="{_n(y)}">{_esc(text)}</text>'
