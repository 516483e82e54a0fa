"""Tests for events.cost: reading cost input, the cost values list and the displayed cost."""

import pytest

from events import cost


@pytest.mark.parametrize(
    "raw, values, symbol, position",
    [
        pytest.param("$20", ["$20"], "$", "prefix", id="dollar-prefix"),
        pytest.param("20$", ["20$"], "$", "postfix", id="dollar-postfix"),
        pytest.param("€6.50 - €8.50", ["€6.50 - €8.50"], "€", "prefix", id="euro-range"),
        pytest.param("20 €", ["20 €"], "€", "postfix", id="euro-postfix-spaced"),
        pytest.param("CHF 20", ["CHF 20"], "CHF", "prefix", id="iso-code"),
        pytest.param("From $10", ["From $10"], "$", "prefix", id="word-before-symbol"),
        pytest.param("5 dollars", ["5 dollars"], "", "", id="word-is-no-symbol"),
        pytest.param("20", ["20"], "", "", id="bare-number"),
        pytest.param("Donation", ["Donation"], "", "", id="words"),
        pytest.param("  $5  ", ["$5"], "$", "prefix", id="trimmed"),
        pytest.param(["0$", "20$", "30$"], ["0$", "20$", "30$"], "$", "postfix", id="list"),
        pytest.param(["", "Free", "£5"], ["Free", "£5"], "£", "prefix", id="first-value-with-symbol"),
        pytest.param(["10", "$20"], ["10", "$20"], "$", "prefix", id="symbol-in-later-value"),
        pytest.param(20, ["20"], "", "", id="int"),
        pytest.param(6.5, ["6.5"], "", "", id="float"),
        pytest.param(1e20, ["100000000000000000000"], "", "", id="float-without-exponent"),
        pytest.param(["5", 7], ["5", "7"], "", "", id="mixed-list"),
        pytest.param("", [], "", "", id="empty-string"),
        pytest.param([], [], "", "", id="empty-list"),
    ],
)
def test_parse_cost_input(raw, values, symbol, position):
    parsed = cost.parse_cost_input(raw)
    assert parsed.values == values
    assert parsed.currency_symbol == symbol
    assert parsed.currency_position == position


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param(None, id="none"),
        pytest.param(True, id="bool"),
        pytest.param({"cost": 5}, id="dict"),
        pytest.param([["$5"]], id="nested-list"),
        pytest.param(["$5", None], id="none-in-list"),
        pytest.param(float("nan"), id="nan"),
    ],
)
def test_parse_cost_input_rejects(raw):
    with pytest.raises(ValueError):
        cost.parse_cost_input(raw)


@pytest.mark.parametrize(
    "values, expected",
    [
        pytest.param(["0$", "20$", "30$"], ["0", "20", "30"], id="postfix-list"),
        pytest.param(["€6.50 - €8.50"], ["6.50", "8.50"], id="range-in-one-string"),
        pytest.param(["1,000.50"], ["1000.50"], id="thousands-comma"),
        pytest.param(["6,50"], ["6.50"], id="decimal-comma"),
        pytest.param(["1.234,56"], ["1234.56"], id="european-notation"),
        pytest.param(["1,000,000"], ["1000000"], id="repeated-thousands"),
        pytest.param(["1,000"], ["1000"], id="comma-three-digits-is-thousands"),
        pytest.param(["30", "5", "20"], ["5", "20", "30"], id="sorted-numerically"),
        pytest.param(["10", "$10", "10.00"], ["10"], id="deduplicated"),
        pytest.param(["Donation"], ["donation"], id="word-slug"),
        pytest.param(["Pay what you want!"], ["pay-what-you-want"], id="sentence-slug"),
        pytest.param(["Donation", "5"], ["5", "donation"], id="numbers-then-words"),
        pytest.param([], [], id="empty"),
    ],
)
def test_cost_values(values, expected):
    assert cost.cost_values(values) == expected


@pytest.mark.parametrize(
    "values, symbol, position, expected",
    [
        pytest.param(["20$"], "$", "postfix", "20$", id="postfix"),
        pytest.param(["0$", "20$", "30$"], "$", "postfix", "Free – 30$", id="free-to-postfix"),
        pytest.param(["23"], "$", "prefix", "$23", id="prefix"),
        pytest.param(["23"], "", "", "$23", id="default-symbol"),
        pytest.param(["5 - 50"], "", "", "$5 – $50", id="range-in-one-string"),
        pytest.param(["Donation"], "", "", "Donation", id="words-as-stored"),
        pytest.param(["Donation", "Tips"], "", "", "Donation, Tips", id="several-word-values"),
        pytest.param([], "$", "prefix", "", id="no-values"),
        pytest.param([""], "$", "prefix", "", id="only-empty-value"),
        pytest.param(["0"], "", "", "Free", id="zero"),
        pytest.param(["0", "0.00$"], "$", "postfix", "Free", id="all-zero"),
        pytest.param(["€6.50 - €8.50"], "€", "prefix", "€6.50 – €8.50", id="euro-range"),
        pytest.param(["10", "10.00"], "", "", "$10", id="equal-low-high"),
        pytest.param(["5", "Donation"], "", "", "$5", id="numbers-win-over-words"),
        pytest.param(["30", "5", "20"], "€", "", "€5 – €30", id="symbol-with-empty-position"),
        pytest.param(["1,000.50"], "$", "prefix", "$1000.50", id="normalised-notation"),
    ],
)
def test_format_cost(values, symbol, position, expected):
    assert cost.format_cost(values, symbol, position) == expected


def test_format_cost_range_uses_an_en_dash():
    assert "\u2013" in cost.format_cost(["5", "10"], "$", "prefix")


def test_format_cost_default_symbol():
    assert cost.format_cost(["5"], "", "", default_symbol="€") == "€5"
    assert cost.format_cost(["5"], "£", "", default_symbol="€") == "£5"


def test_format_cost_free_label():
    assert cost.format_cost(["0", "12"], "", "", free_label="Gratis") == "Gratis – $12"
