"""Code run in a Python process of its own, configured by the site's settings: what a fresh process
does (settings read at start-up, apps made ready) that the test run, long started, cannot show."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def site_process_output(code, *arguments, **environment):
    """What `code` prints in a process of its own; an environment value of None removes that name."""
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "calendar_site.settings", **environment}
    return subprocess.run(
        [sys.executable, "-c", code, *arguments],
        env={name: value for name, value in environment.items() if value is not None},
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
