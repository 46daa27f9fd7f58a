#!/usr/bin/env bash
# Make sure bubblewrap's `bwrap` program is on PATH: every run of student code (the checker, the
# grader, tournament entries) then starts inside it, in namespaces of its own (gamelib.play.box.sandbox,
# gamelib.play.box.guard). Installs Debian's `bubblewrap` package with apt-get when running as root on
# Debian/Ubuntu; otherwise prints one line saying what to run. Never fails: without bwrap student code
# runs under the guard only, and the app, the grader's summary and its CSV say so ("guard only").
set -u

hint="bubblewrap's bwrap is missing: run 'sudo apt-get install bubblewrap' (Debian/Ubuntu) to run student code isolated; until then it runs under the guard only."

if command -v bwrap >/dev/null 2>&1; then
    exit 0
fi

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing bubblewrap (for the bwrap program) with apt-get..."
    if DEBIAN_FRONTEND=noninteractive apt-get update -qq \
        && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends bubblewrap </dev/null \
        && command -v bwrap >/dev/null 2>&1; then
        exit 0
    fi
fi

echo "$hint"
exit 0
