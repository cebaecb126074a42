"""What the browser tests share: headless Chromium, found and run with a bound on its time, and
a list of the checks that failed. Python 3 standard library only."""

import os
import shutil
import signal
import subprocess
import sys
import time

SKIP = 77  # ctest's SKIP_RETURN_CODE for these tests
CHROMIUM_TIMEOUT = 120  # seconds for one page, start to exit
# The viewer's status names, by the numbers its data and the live view's JSON give them.
STATUS = ["idle", "success", "failure", "running", "skipped", "halted"]

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL: " + message)
    return condition


def find_chromium():
    for name in (os.environ.get("CHROMIUM"), "chromium", "chromium-browser", "google-chrome"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def dump_dom(chromium, page, profile, width=1280, height=900, budget_ms=15000, extra=()):
    """Loads the file `page` in headless Chromium, letting `budget_ms` of the page's virtual
    time pass; returns the DOM it ends with and the seconds taken."""
    command = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
               "--no-first-run", "--disable-extensions", "--disable-background-networking",
               "--disable-sync", *extra, "--user-data-dir=" + profile,
               "--window-size=%d,%d" % (width, height),
               "--virtual-time-budget=%d" % budget_ms, "--dump-dom", "file://" + page]
    start = time.monotonic()
    # A session of its own, so that a timeout can end Chromium and every process it started.
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, start_new_session=True)
    try:
        out, err = process.communicate(timeout=CHROMIUM_TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        sys.exit("Chromium did not finish %s within %d s" % (page, CHROMIUM_TIMEOUT))
    seconds = time.monotonic() - start
    if process.returncode != 0:
        sys.exit("Chromium failed (%d) on %s:\n%s" % (process.returncode, page, err[-2000:]))
    return out, seconds
