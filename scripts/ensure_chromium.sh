#!/usr/bin/env bash
# Make sure Debian's Chromium is at /usr/bin/chromium, for the real-browser test of the explorer
# (tests/test_browser.py drives it through Playwright; never `playwright install`), with a font
# for legible screenshots.
# Installs it with apt-get when running as root on Debian/Ubuntu; otherwise prints one line
# saying what to run. Never fails: without Chromium the browser test is skipped with that reason.
set -u

hint="chromium is missing: run 'sudo apt-get install chromium' (Debian) to run the real-browser test; it is skipped until then."

if [ -x /usr/bin/chromium ]; then
    exit 0
fi

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing chromium (for the real-browser test) with apt-get..."
    if DEBIAN_FRONTEND=noninteractive apt-get update -qq \
        && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core </dev/null \
        && [ -x /usr/bin/chromium ]; then
        exit 0
    fi
fi

echo "$hint"
exit 0
