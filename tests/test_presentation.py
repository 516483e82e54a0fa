"""Presentation renders every way out; the store gets its renderers from it without a setter."""

import os
import subprocess
import sys
from pathlib import Path

from events import store

ROOT = Path(__file__).resolve().parent.parent


def test_a_fresh_process_has_the_store_s_renderers_once_the_app_is_ready():
    # In a process of its own: the test run has imported presentation long before this test.
    script = "import django\ndjango.setup()\nfrom events import store\nprint(' '.join(sorted(store.RENDERERS)))\n"
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "calendar_site.settings"}
    answer = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert answer.stdout.split() == sorted(store.SOURCE_KINDS.values())
