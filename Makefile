# make lab    open the course in JupyterLab
# make app    serve the course app (explorer, quiz, checker) on this machine only: prints a URL
#             with a fresh random token (scripts/app.sh); e.g. make app PORT=9000
# make test   run the tests: unit, property, doctests and all notebooks (nbval), on every core;
#             about two minutes on two cores
#             e.g. make test PYTEST_ARGS="-k alphabeta -x"
# make test-slow  the checks that take long: real-browser tests, tournaments with faulty
#             entries, the long fuzz runs, most of the bitboard loops' random positions,
#             mypy --strict, every lesson run alone from an empty folder
#             (CI runs make test, then this)
# make html   the lessons as self-contained HTML pages in build/html/: executed, every figure
#             embedded, so a copied or uploaded page still shows them (gamelib/view/lesson_html.py)
# make lite   the course as a static website that runs in a browser with nothing installed
#             (JupyterLite and Pyodide): build/lite/, to put on any web server or a USB stick; the
#             first build downloads Pyodide (npm) and the browser's wheels (PyPI) into .cache/lite,
#             later builds run offline (lite/build.py)
# make site   the one folder to publish, build/site/: the browser course of make lite and, in read/,
#             every lesson as the page make html writes, each linking to the same lesson in the
#             browser course; its index.html lists both (README, "Publishing the course")
# make lock   resolve pyproject.toml's ranges again to the newest versions they allow and write
#             them, with their hashes, to requirements/lock.txt (and the same versions into
#             environment.yml); run it each term before teaching, then make test and
#             make test-slow on the new lock before committing it (README, "Tested versions")
# make clean  remove .venv and caches (not .cache/lite, the site's downloads)
#
# Every user target first makes sure .venv exists and holds exactly the versions in
# requirements/lock.txt, hashes checked, then gamelib itself with --no-deps (reinstalled
# whenever the lock or pyproject.toml is newer than .venv/.installed);
# lab and test then make sure graphviz's `dot` program is there
# (scripts/ensure_graphviz.sh); lab, app and test make sure the cairo library is
# there for PNG pictures of search steps (scripts/ensure_cairo.sh).
# `make test` also makes sure Debian's Chromium is there for the real-browser
# test (scripts/ensure_chromium.sh; the test is skipped, saying why, without it).
# lab, app and test make sure bubblewrap's `bwrap` is there, the box student code
# runs in (scripts/ensure_bubblewrap.sh); without it student code runs under the
# guard only, and the app, the grader and the tests say so.

PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed
LOCK := requirements/lock.txt
PIP := $(VENV)/bin/python -m pip --quiet --disable-pip-version-check
# make lock asks this index (uv ignores pip's configuration); e.g. make lock INDEX_URL=https://mirror/simple
INDEX_URL ?= https://pypi.org/simple
PYTEST_ARGS ?=
# make test runs the tests on every core (pytest-xdist), a test file per worker at a time, so a
# notebook's cells run in order in one kernel; PARALLEL= runs them in one process.
PARALLEL ?= -n auto --dist loadfile
PORT ?= 8866
# JupyterLab refuses to start as root unless told it may.
ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root,)

.PHONY: lab app test test-slow html lite site lock clean venv graphviz chromium cairo bubblewrap

# lab: JupyterLab on the lessons, with the course's settings as defaults (lite/overrides.json: no
# news or update pop-ups over a new user's first lesson), installed into the environment's JupyterLab.
lab: $(STAMP) graphviz cairo bubblewrap
	install -D -m 644 lite/overrides.json $(VENV)/share/jupyter/lab/settings/overrides.json
	$(VENV)/bin/jupyter lab --ip=127.0.0.1 --notebook-dir=notebooks $(ALLOW_ROOT)

app: $(STAMP) cairo bubblewrap
	PYTHON=$(VENV)/bin/python PORT=$(PORT) bash scripts/app.sh

# The tests start many Python processes (xdist workers, notebook kernels, sandboxes, engines): with
# PYTHONDONTWRITEBYTECODE set, each would compile gamelib and rewrite the tests' asserts again
# (collection 11.5 s instead of 5.8 s a process), so the test targets let Python keep its caches.
test: $(STAMP) graphviz chromium cairo bubblewrap
	env -u PYTHONDONTWRITEBYTECODE $(VENV)/bin/python -m pytest $(PARALLEL) $(PYTEST_ARGS)

# test-slow runs the slow checks, then the property tests again with all their examples
# (tests/budget.py: make test draws a fifth of them).
test-slow: $(STAMP) graphviz chromium cairo bubblewrap
	env -u PYTHONDONTWRITEBYTECODE $(VENV)/bin/python -m pytest -m slow $(PYTEST_ARGS)
	env -u PYTHONDONTWRITEBYTECODE GAMELIB_EXAMPLES=full $(VENV)/bin/python -m pytest $(PARALLEL) -m examples $(PYTEST_ARGS)

html: $(STAMP) graphviz
	$(VENV)/bin/python -m gamelib.view.lesson_html --out build/html

lite: $(STAMP)
	$(VENV)/bin/python lite/build.py --out build/lite

site: $(STAMP) graphviz
	$(VENV)/bin/python lite/build.py --out build/site --pages

# Internal targets.

venv: $(STAMP)

# The lock holds the dependencies and the `full`, `test` and `lite` extras (lite: jupyterlite-core and
# the Pyodide kernel, to build the site; the browser's own wheels are pinned in lite/wheels.txt),
# and pip, setuptools and uv themselves. pip installs the lock as it is (--no-deps: the lock already
# holds every dependency, resolved by uv; pip check then confirms that nothing is missing), and
# gamelib on top with --no-deps.
$(STAMP): $(LOCK) pyproject.toml
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(PIP) install --require-hashes --no-deps -r $(LOCK)
	$(PIP) install --no-deps --no-build-isolation -e .
	$(VENV)/bin/python -m pip check
	touch $@

lock: $(STAMP)
	$(VENV)/bin/uv pip compile --quiet --no-config --index-url $(INDEX_URL) --upgrade \
		--universal --python-version 3.11 --generate-hashes --custom-compile-command "make lock" \
		pyproject.toml requirements/tools.in --extra full --extra test --extra lite -o $(LOCK)
	$(VENV)/bin/python scripts/pin_environment.py
	rm -rf $(VENV)
	$(MAKE) venv

graphviz:
	@bash scripts/ensure_graphviz.sh

chromium:
	@bash scripts/ensure_chromium.sh

bubblewrap:
	@bash scripts/ensure_bubblewrap.sh

cairo: $(STAMP)
	@PYTHON=$(VENV)/bin/python bash scripts/ensure_cairo.sh

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache build dist *.egg-info
	find . -path ./.git -prune -o \( -name __pycache__ -o -name .ipynb_checkpoints \) -type d -prune -exec rm -rf {} +
