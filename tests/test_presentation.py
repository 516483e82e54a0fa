"""Presentation renders every way out; the store gets its renderers from it without a setter."""

from events import store

from .processes import site_process_output


def test_a_fresh_process_has_the_store_s_renderers_once_the_app_is_ready():
    # In a process of its own: the test run has imported presentation long before this test.
    script = "import django\ndjango.setup()\nfrom events import store\nprint(' '.join(sorted(store.RENDERERS)))\n"
    assert site_process_output(script).split() == sorted(store.SOURCE_KINDS.values())
