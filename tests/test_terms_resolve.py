"""Terms named by an event write's `categories`/`tags`: IDs, slugs or names, unknown ones created (docs/contract/terms.md §7)."""

import pytest
from django.utils import translation

from events.models import Taxonomy, Term
from events.services.terms import resolve_terms

from .factories import make_category, make_tag

pytestmark = pytest.mark.django_db

CATEGORY, TAG = Taxonomy.CATEGORY, Taxonomy.TAG


@pytest.fixture(autouse=True)
def english_between_tests():
    translation.activate("en")
    yield
    translation.activate("en")


def test_ids_slugs_and_names_resolve_in_the_order_given():
    jazz = make_tag("Jazz", slug="jazz")
    rock = make_tag("Rock and roll", slug="rock")
    folk = make_tag("Folk", slug="folk-music")
    found = resolve_terms([str(rock.pk), "jazz", "FOLK"], TAG)
    assert [term.pk for term in found] == [rock.pk, jazz.pk, folk.pk]


@pytest.mark.parametrize(
    "value",
    ["{a},{b}", ["{a}", "{b}"], [{"0": "{a}"}, "{b}"]],
    ids=["csv", "list", "ignores-objects"],
)
def test_list_and_csv_forms(value):
    a, b = make_tag("A tag"), make_tag("B tag")
    if isinstance(value, str):
        value = value.format(a=a.pk, b=b.pk)
    else:
        value = [item.format(a=a.pk, b=b.pk) if isinstance(item, str) else item for item in value]
    expected = [a.pk, b.pk] if not isinstance(value[0], dict) else [b.pk]
    assert [term.pk for term in resolve_terms(value, TAG)] == expected


def test_unknown_names_are_created_with_a_derived_slug():
    found = resolve_terms(["Brand New", "Rock & Roll"], CATEGORY)
    assert [(term.name_en, term.slug, term.taxonomy, term.parent_id) for term in found] == [
        ("Brand New", "brand-new", CATEGORY, None),
        ("Rock &amp; Roll", "rock-roll", CATEGORY, None),
    ]
    # Resolving them again finds the same terms.
    assert [term.pk for term in resolve_terms("brand-new, Rock & Roll", CATEGORY)] == [term.pk for term in found]


def test_unknown_numeric_ids_are_skipped():
    tag = make_tag("Known")
    assert [term.pk for term in resolve_terms([2389, tag.pk, "99999"], TAG)] == [tag.pk]
    assert Term.objects.count() == 1


def test_terms_of_the_other_taxonomy_are_not_used():
    category = make_category("Shared name", slug="shared-name")
    found = resolve_terms(["shared-name", str(category.pk)], TAG)
    assert len(found) == 1
    assert found[0].taxonomy == TAG
    assert found[0].pk != category.pk


@pytest.mark.parametrize(
    "value", ["", [], None, " , ", [""]], ids=["empty-string", "empty-list", "none", "only-commas", "list-of-empty"]
)
def test_empty_means_no_terms(value):
    assert resolve_terms(value, TAG) == []
    assert not Term.objects.exists()


def test_repeats_are_dropped():
    tag = make_tag("Jazz")
    assert [term.pk for term in resolve_terms(["Jazz", "jazz", str(tag.pk)], TAG)] == [tag.pk]


def test_created_in_a_language_also_fills_english():
    with translation.override("zh-hant"):
        (term,) = resolve_terms("戶外", TAG)
    assert (term.name_en, term.name_zh_hant, term.slug) == ("戶外", "戶外", "%e6%88%b6%e5%a4%96")


def test_names_match_in_any_language():
    category = make_category("Classical", name_zh_hant="古典音樂")
    assert [term.pk for term in resolve_terms("古典音樂", CATEGORY)] == [category.pk]


def test_overlong_names_are_cut_to_fit():
    (term,) = resolve_terms(["y" * 250], TAG)
    assert term.name_en == "y" * 200
