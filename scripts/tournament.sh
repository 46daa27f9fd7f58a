#!/usr/bin/env bash
# The full tournament that lesson 7 reads: seed 002's three pairings, 40 full games each
# (28 rounds, 1 s a move, colours alternating), under both neighbourhood rules.
#
#   bash scripts/tournament.sh            # all six matches into gamelib/data/tournaments/
#   WORKERS=2 GAMES=40 bash scripts/tournament.sh
#
# Each finished game is appended to its file at once; if the run is stopped, run the same
# command again and it resumes where it stopped. The time limits are wall time, so the default is
# one game at a time, on a machine doing nothing else: a game that shares the CPU with another
# process can overrun its limit through no fault of the bot. That takes about 75 minutes on the
# 2-core course machine.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PYTHON=${PYTHON:-.venv/bin/python}
GAMES=${GAMES:-40}
WORKERS=${WORKERS:-1}
OUT=gamelib/data/tournaments
# The alpha-beta bot plays with the weighted evaluation (gamelib.games.adjacency.evaluation): in trial games it
# beat the hill climber by wider margins than with the seed's material count.
ALPHABETA="alphabeta:evaluation=weighted"
mkdir -p "$OUT"
for rule in 8 4; do
    for pairing in "alphabeta hillclimb" "alphabeta genetic" "hillclimb genetic"; do
        set -- $pairing
        a=$1; [ "$a" = alphabeta ] && a=$ALPHABETA
        "$PYTHON" -m gamelib match "$a" "$2" --games "$GAMES" --rounds 28 --rule "$rule" --time 1 \
            --seed 2026 --workers "$WORKERS" --out "$OUT/${1}_vs_${2}_rule${rule}.jsonl"
    done
done
