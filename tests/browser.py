"""What every browser test shares: Debian's Chromium driven by Playwright, the tests' marks, a page."""

import os
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
LAUNCH_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
IN_CI = os.environ.get("CI", "").strip().lower() not in {"", "0", "false", "no"}

# Outside CI a machine without the browser skips this test; in CI (which installs it with
# .ci/install-browser) a missing browser must fail the run instead of hiding the test.
# Every browser test's marks: skipped without a browser (required in CI), and a live server's database.
BROWSER_TEST = [
    pytest.mark.skipif(
        not CHROMIUM.exists() and not IN_CI,
        reason=f"{CHROMIUM} is not installed (run .ci/install-browser); set CI=true to require it",
    ),
    pytest.mark.django_db(transaction=True),
]


@contextmanager
def browser_page(scripts=False):
    """A page of a fresh browser: the public pages promise to work without scripts, so by default it
    runs none; the admin's tests turn them on. Playwright runs an event loop in this thread while it
    is open, so Django refuses database work here until it closes: build the data first."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        viewport = {"width": 1366, "height": 768} if scripts else {"width": 1100, "height": 900}
        context = browser.new_context(java_script_enabled=scripts, locale="en-US", viewport=viewport)
        try:
            yield context.new_page()
        finally:
            context.close()
            browser.close()


def sign_in_to_admin(page, server_url, username, password, next_path):
    page.goto(f"{server_url}/admin/login/?next={next_path}")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.locator("input[type=submit]").click()
