#!/usr/bin/env bash
# Serve the course app (notebooks/app/explorer_app.ipynb: the explorer, the pruning quiz, the checker)
# with Voila, for this machine only: bound to 127.0.0.1, with a fresh random token in the URL it
# prints ("Voilà is running at: http://127.0.0.1:8866/?token=..."). The server starts in the project
# folder, so Voila reads the project's voila.json: idle kernels are culled and at most 10 run at once.
# This is what `make app` runs, and what tests/test_browser.py runs.
#
#   bash scripts/app.sh                    # port 8866 (the next free one if taken)
#   PORT=9000 bash scripts/app.sh          # another port
#   PYTHON=python3 bash scripts/app.sh     # another interpreter (default .venv/bin/python)
#
# Further arguments go to Voila. Serving a class over the network is a separate, explicit step (see
# the README): APP_HOST=0.0.0.0 listens on every interface, after a warning.
set -euo pipefail
cd "$(dirname "$0")/.."
host=${APP_HOST:-127.0.0.1}
if [[ $host != 127.0.0.1 && $host != localhost ]]; then
    echo "WARNING: serving the app on $host: anyone who can reach this machine and has the token runs" \
         "code through the checker: in bubblewrap's box where it runs, else as $(id -un) (see the README's" \
         "Security section)." >&2
fi
unset JUPYTER_TOKEN JUPYTER_TOKEN_FILE   # the token is a fresh random one, unless --token=... is given
exec "${PYTHON:-.venv/bin/python}" -m voila notebooks/app/explorer_app.ipynb --no-browser \
    --Voila.ip="$host" --port="${PORT:-8866}" --token "$@"
