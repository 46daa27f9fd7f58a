#!/usr/bin/env bash
# Make sure graphviz's `dot` program is on PATH, for drawing search trees.
# Installs it with apt-get when running as root on Debian/Ubuntu; otherwise
# prints one line saying what to run. Never fails: without `dot` the course
# falls back to a simpler tree drawing.
set -u

hint="graphviz's dot is missing: run 'sudo apt-get install graphviz' (Debian/Ubuntu) or 'brew install graphviz' (macOS); the course still works with a simpler tree drawing."

if command -v dot >/dev/null 2>&1; then
    exit 0
fi

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing graphviz (for the dot program) with apt-get..."
    if DEBIAN_FRONTEND=noninteractive apt-get update -qq \
        && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq graphviz </dev/null \
        && command -v dot >/dev/null 2>&1; then
        exit 0
    fi
fi

echo "$hint"
exit 0
