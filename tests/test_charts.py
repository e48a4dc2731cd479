"""The inline SVG charts: well-formed, inside their viewBox, escaped, and robust on odd data."""

import xml.etree.ElementTree as ET

import pytest
from markupsafe import Markup

from scorekeeper.web.charts import _ticks, bar_chart, line_chart

NS = {"svg": "http://www.w3.org/2000/svg"}
DATES = ["02.10.", "09.10.", "16.10.", "23.10.", "30.10.", "06.11.", "13.11.", "20.11."]


def parse(markup: Markup) -> ET.Element:
    assert isinstance(markup, Markup)
    return ET.fromstring(str(markup))


def view_box(root: ET.Element) -> tuple[float, float]:
    x, y, width, height = map(float, root.attrib["viewBox"].split())
    assert (x, y) == (0, 0)
    return width, height


def polylines(root: ET.Element) -> list[list[tuple[float, float]]]:
    return [[tuple(map(float, pair.split(","))) for pair in line.attrib["points"].split()]
            for line in root.iterfind(".//svg:polyline", NS)]


def texts(root: ET.Element, cls: str | None = None) -> list[str]:
    return [el.text or "" for el in root.iterfind(".//svg:text", NS)
            if cls is None or el.attrib.get("class") == cls]


def lines_of(root: ET.Element, cls: str) -> list[ET.Element]:
    return [el for el in root.iterfind(".//svg:line", NS) if el.attrib.get("class") == cls]


def assert_inside(root: ET.Element, points: list[tuple[float, float]]) -> None:
    width, height = view_box(root)
    for x, y in points:
        assert 0 <= x <= width and 0 <= y <= height


def money(values: list[float]) -> Markup:
    return line_chart([("Geld", list(zip(DATES, values, strict=False)))], label="Geld", unit="€")


def test_a_line_chart_is_an_accessible_svg_for_a_phone_column():
    root = parse(money([2.5, 4, -1.5, -6]))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.attrib["class"] == "chart"
    assert root.attrib["role"] == "img"
    assert root.attrib["aria-label"] == "Geld"
    assert view_box(root)[0] == 360
    assert int(root.attrib["font-size"]) >= 11


def test_the_polyline_has_one_point_per_value_inside_the_view_box():
    values = [2.5, 4, -1.5, -6, -3.5, 1, 7.5, 5]
    root = parse(money(values))
    (points,) = polylines(root)
    assert len(points) == len(values)
    assert_inside(root, points)
    xs = [x for x, _ in points]
    assert xs == sorted(xs) and len(set(xs)) == len(xs)


def test_a_higher_value_is_drawn_higher_up():
    values = [2.5, 4, -1.5, -6, -3.5, 1, 7.5, 5]
    (points,) = polylines(parse(money(values)))
    ys = [y for _, y in points]
    for i in range(len(values)):
        for j in range(len(values)):
            if values[i] > values[j]:
                assert ys[i] < ys[j]


def test_mixed_signs_get_a_zero_line_between_the_values():
    root = parse(money([3, -2, 5]))
    (zero,) = lines_of(root, "zero")
    (points,) = polylines(root)
    y0 = float(zero.attrib["y1"])
    assert points[1][1] > y0 > points[0][1]
    assert any(t.startswith("−") for t in texts(root, "tick"))  # a real minus sign


def test_no_zero_line_when_asked_or_when_zero_is_out_of_range():
    assert not lines_of(parse(line_chart([("a", [("1", 3), ("2", -2)])], label="x",
                                         zero_line=False)), "zero")
    assert not lines_of(parse(line_chart([("a", [("1", 30), ("2", 32)])], label="x")), "zero")


def test_the_highlight_line_is_dashed_at_its_value_and_in_range():
    root = parse(line_chart([("Anna", [("1", 10), ("2", 26)]), ("Bernd", [("1", 5), ("2", 9)])],
                            label="Punkte", highlight=100))
    (line,) = lines_of(root, "highlight")
    assert line.attrib["stroke-dasharray"]
    assert "100" in texts(root, "tick")  # the axis already names the target
    assert not texts(root, "highlight-label")
    width, height = view_box(root)
    assert 0 <= float(line.attrib["y1"]) <= height
    for points in polylines(root):
        assert all(y > float(line.attrib["y1"]) for _, y in points)
    assert not lines_of(parse(money([1, 2])), "highlight")


@pytest.mark.parametrize("target, values, text", [(90, [10, 26], "90"), (100, [97, 99.5], "100"),
                                                  (7.5, [1, 9], "7,50")])
def test_a_highlight_between_ticks_is_named(target, values, text):
    root = parse(line_chart([("a", list(zip("ab", values, strict=True)))], label="x",
                            highlight=target))
    assert len(lines_of(root, "highlight")) == 1
    assert text in texts(root, "highlight-label") + texts(root, "tick")


def test_several_series_get_distinct_colours_and_a_legend():
    root = parse(line_chart([("Anna", [("1", 1), ("2", 3)]), ("Bernd", [("1", 2), ("2", 0)]),
                             ("Chris", [("1", 0), ("2", 5)])], label="Punkte"))
    strokes = [el.attrib["stroke"] for el in root.iterfind(".//svg:polyline", NS)]
    assert len(set(strokes)) == 3
    assert texts(root, "legend-label") == ["Anna", "Bernd", "Chris"]
    assert not texts(parse(money([1, 2])), "legend-label")


def test_text_is_escaped():
    evil = "<script>alert('x')</script>"
    markup = str(line_chart([(evil, [(evil, 1)]), ("&", [("2", 2)])], label=evil, unit=evil))
    assert "<script>" not in markup
    assert "&lt;script&gt;" in markup
    root = ET.fromstring(markup)
    assert root.attrib["aria-label"] == evil
    assert texts(root, "legend-label")[0].startswith("<script>")  # long names are shortened
    bars = str(bar_chart([(evil, 1)], label=evil, unit=evil, empty=evil))
    assert "<script>" not in bars and "&lt;script&gt;" in bars
    assert "<script>" not in str(line_chart([], label=evil, empty=evil))
    # control characters would make the XML ill-formed
    parse(line_chart([("a\x00b", [("x\x1b", 1)])], label="l\x07"))


@pytest.mark.parametrize("empty_input", [[], [("Geld", [])], [("a", []), ("b", [])]])
def test_no_data_draws_the_label_and_the_empty_text(empty_input):
    root = parse(line_chart(empty_input, label="Kontostand", empty="Noch keine Abende"))
    assert root.attrib["aria-label"] == "Kontostand"
    assert "Kontostand" in texts(root)
    assert "Noch keine Abende" in texts(root, "empty")
    assert not polylines(root)


def test_the_empty_text_defaults_to_a_dash_and_works_for_bars_too():
    assert "–" in texts(parse(line_chart([], label="x")), "empty")
    root = parse(bar_chart([], label="Striche", empty="Keine"))
    assert "Keine" in texts(root, "empty")
    assert not root.findall(".//svg:rect", NS)


def test_a_single_point():
    root = parse(line_chart([("Geld", [("27.11.", 12.5)])], label="Geld", unit="€"))
    (points,) = polylines(root)
    assert len(points) == 1
    assert_inside(root, points)
    assert len(root.findall(".//svg:circle", NS)) == 1
    assert texts(root, "xlabel") == ["27.11."]


@pytest.mark.parametrize("value", [0, 5, -3, 0.25, 1e9])
def test_all_equal_values(value):
    root = parse(line_chart([("a", [(str(i), value) for i in range(5)])], label="x"))
    (points,) = polylines(root)
    assert len(points) == 5
    assert_inside(root, points)
    assert len({y for _, y in points}) == 1
    assert 3 <= len(texts(root, "tick")) <= 5
    bars = parse(bar_chart([(str(i), value) for i in range(5)], label="x"))
    assert len(bars.findall(".//svg:rect", NS)) == 5


@pytest.mark.parametrize("values", [[1e12, -3e12, 5], [1e200, -1e300, 0], [-5, -80, -1200.5],
                                    [0.001, 0.002, 0.0015]])
def test_huge_tiny_and_negative_values_stay_inside(values):
    root = parse(line_chart([("a", [(str(i), v) for i, v in enumerate(values)])], label="x"))
    (points,) = polylines(root)
    assert len(points) == len(values)
    assert_inside(root, points)
    ticks = texts(root, "tick")
    assert 3 <= len(ticks) <= 5 and len(set(ticks)) == len(ticks)
    bars = parse(bar_chart([(str(i), v) for i, v in enumerate(values)], label="x"))
    width, height = view_box(bars)
    for rect in bars.iterfind(".//svg:rect", NS):
        x, y = float(rect.attrib["x"]), float(rect.attrib["y"])
        assert 0 <= x and x + float(rect.attrib["width"]) <= width
        assert 0 <= y and y + float(rect.attrib["height"]) <= height


def test_non_finite_values_are_left_out():
    root = parse(line_chart([("a", [("1", 1), ("2", float("nan")), ("3", float("inf")),
                                    ("4", 2)])], label="x"))
    (points,) = polylines(root)
    assert len(points) == 2
    assert "–" in texts(parse(line_chart([("a", [("1", float("nan"))])], label="x")), "empty")


def test_a_thousand_points_make_one_polyline():
    data = [(f"{i % 28 + 1}.{i // 28 % 12 + 1}.", (i % 37) * (-1) ** i * 1.5) for i in range(1000)]
    root = parse(line_chart([("Geld", data)], label="Geld", unit="€"))
    (points,) = polylines(root)
    assert len(points) == 1000
    assert_inside(root, points)
    assert len(root.findall(".//svg:circle", NS)) <= 1  # no 1000 dots, just the last value
    assert len(texts(root, "xlabel")) <= 6


def test_x_labels_are_thinned_and_never_overlap():
    many = [(f"{d:02d}.11.", d) for d in range(1, 31)]
    for root in (parse(line_chart([("a", many)], label="x")), parse(bar_chart(many, label="x"))):
        labels = root.findall(".//svg:text[@class='xlabel']", NS)
        assert 2 <= len(labels) <= 6
        xs = [float(el.attrib["x"]) for el in labels]
        assert all(b - a > 40 for a, b in zip(xs, xs[1:], strict=False))
        assert labels[0].text == "01.11."


def test_bars_go_up_and_down_from_the_zero_line_with_their_values():
    root = parse(bar_chart([("a", 3), ("b", -2), ("c", 0)], label="Gewinn", unit="€"))
    (zero,) = lines_of(root, "zero")
    y0 = float(zero.attrib["y1"])
    up, down, flat = root.findall(".//svg:rect", NS)
    assert float(up.attrib["y"]) + float(up.attrib["height"]) == pytest.approx(y0, abs=0.1)
    assert float(down.attrib["y"]) == pytest.approx(y0, abs=0.1)
    assert float(up.attrib["height"]) > float(down.attrib["height"]) > 0
    assert float(flat.attrib["height"]) == 0
    assert up.attrib["fill"] == "#0b6e4f" and down.attrib["fill"] == "#b3261e"
    assert texts(root, "value") == ["3\u00a0€", "−2\u00a0€", "0\u00a0€"]


def test_bar_values_use_the_same_decimals_and_disappear_when_too_many():
    root = parse(bar_chart([("a", 2.5), ("b", 4)], label="x"))
    assert texts(root, "value") == ["2,50", "4,00"]
    assert texts(parse(bar_chart([("a", 2.5)], label="x", decimal=".")), "value") == ["2.50"]
    assert not texts(parse(bar_chart([(str(i), i) for i in range(13)], label="x")), "value")


def test_striche_ticks_are_whole_numbers():
    root = parse(bar_chart([("a", 0), ("b", 1), ("c", 0)], label="Striche"))
    ticks = texts(root, "tick")
    assert 3 <= len(ticks) <= 5
    assert all(t.isdigit() for t in ticks)


@pytest.mark.parametrize("lo, hi", [(0, 1), (-6, 14.5), (0, 3), (-1e-3, 2e-3), (97, 103),
                                    (-1200, -5), (0, 1e9)])
def test_ticks_are_few_and_cover_the_range(lo, hi):
    for integers in (False, True):
        ticks = _ticks(lo, hi, integers)
        assert 3 <= len(ticks) <= 5
        assert ticks[0] <= lo and ticks[-1] >= hi


def test_a_single_series_is_green_above_the_zero_line_and_red_below():
    root = parse(money([3, -2, 5]))
    (line,) = root.iterfind(".//svg:polyline", NS)
    (gradient,) = root.iterfind(".//svg:linearGradient", NS)
    assert line.attrib["stroke"] == f"url(#{gradient.attrib['id']})"
    stops = [(float(s.attrib["offset"]), s.attrib["stop-color"])
             for s in gradient.iterfind("svg:stop", NS)]
    (zero,) = lines_of(root, "zero")
    top, bottom = float(gradient.attrib["y1"]), float(gradient.attrib["y2"])
    # both colours change exactly at the zero line: green above, red below
    assert [color for _, color in stops] == ["#0b6e4f", "#b3261e"]
    assert stops[0][0] == stops[1][0]
    assert top + stops[0][0] * (bottom - top) == pytest.approx(float(zero.attrib["y1"]), abs=0.1)
    dots = [el.attrib["fill"] for el in root.iterfind(".//svg:circle", NS)]
    assert dots == ["#0b6e4f", "#b3261e", "#0b6e4f"]
    # all on one side: one plain colour, no gradient
    for values, color in (([1, 4], "#0b6e4f"), ([-1, -4], "#b3261e")):
        root = parse(money(values))
        assert not root.findall(".//svg:linearGradient", NS)
        assert {el.attrib["stroke"] for el in root.iterfind(".//svg:polyline", NS)} == {color}


def test_series_beyond_the_palette_are_dashed_like_their_legend_line():
    names = [f"P{i}" for i in range(10)]
    root = parse(line_chart([(n, [("1", i), ("2", i + 1)]) for i, n in enumerate(names)],
                            label="x"))
    pens = [(el.attrib["stroke"], el.attrib.get("stroke-dasharray"))
            for el in root.iterfind(".//svg:polyline", NS)]
    legend = [(el.attrib["stroke"], el.attrib.get("stroke-dasharray"))
              for el in lines_of(root, "legend")]
    assert pens == legend and len(set(pens)) == 10  # each series told apart, as in its legend
    assert pens[8][0] == pens[0][0] and pens[8][1] and not pens[0][1]
    assert texts(root, "legend-label") == names


def test_a_shorter_series_and_gaps_keep_their_place_on_the_x_axis():
    root = parse(line_chart([("long", [("a", 1), ("b", 2), ("c", 3), ("d", 4)]),
                             ("short", [("a", 4), ("b", None), ("c", 2)])], label="x"))
    long, short = polylines(root)
    assert [x for x, _ in short] == [long[0][0], long[2][0]]
    assert texts(root, "xlabel") == ["a", "b", "c", "d"]
    dots = [(float(el.attrib["cx"]), float(el.attrib["cy"]))
            for el in root.iterfind(".//svg:circle", NS)]
    assert dots == long + short  # a dot on every value drawn


def test_bar_values_drop_the_unit_before_they_would_not_fit():
    def values(count, value):
        return texts(parse(bar_chart([(str(i), value) for i in range(count)], label="x",
                                     unit="€")), "value")

    assert values(4, 1234.5) == ["1.234,50\u00a0€"] * 4
    assert values(5, 1234.5) == ["1.234,50"] * 5  # without the unit, the value still fits
    assert values(9, 1234.5) == []  # not even that
