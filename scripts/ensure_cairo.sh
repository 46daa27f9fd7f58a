#!/usr/bin/env bash
# Make sure the cairo library is there for PNG pictures of search steps (gamelib.view.export draws
# them with cairosvg, which loads libcairo2 through cairocffi), with DejaVu Sans, the default font
# that has every symbol the pictures use (the cut mark, bounds, alpha and beta).
# PYTHON is the interpreter that will draw them (make passes .venv/bin/python); the check is that
# it can load cairo. Installs libcairo2 and fonts-dejavu-core with apt-get when running as root on
# Debian/Ubuntu; otherwise prints one line saying what to run. Never fails: without cairo, SVG
# pictures still work and saving a PNG says what is missing.
set -u

PYTHON="${PYTHON:-python3}"
hint="the cairo library is missing, so pictures cannot be saved as PNG (SVG still works): run 'sudo apt-get install libcairo2' (Debian/Ubuntu) or 'brew install cairo' (macOS)."

has_cairo() {  # cairocffi loads it; before cairocffi is installed, look for the library itself
    "$PYTHON" - >/dev/null 2>&1 <<'PY'
import sys
try:
    import cairocffi  # noqa: F401
except ModuleNotFoundError:
    import ctypes.util
    sys.exit(0 if ctypes.util.find_library("cairo") else 1)
except OSError:
    sys.exit(1)
PY
}

if has_cairo; then
    exit 0
fi

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing the cairo library (for PNG pictures) with apt-get..."
    if DEBIAN_FRONTEND=noninteractive apt-get update -qq \
        && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libcairo2 fonts-dejavu-core </dev/null \
        && has_cairo; then
        exit 0
    fi
fi

echo "$hint"
exit 0
