# The two commands of the README: `make run` and `make test`.
# Both create the virtual environment .venv themselves (needs python3 with venv).
# `make loadtest` runs the load test against a server already running.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# Where collectstatic puts the files WhiteNoise serves (the settings read the
# same environment variable).
STATIC_ROOT ?= staticfiles
# uvicorn's limits: a request's head and body each arrive within 10 s, else
# 408 (webgame/serving.py), idle keep-alive connections close after 5 s, a
# socket's frame is at most 64 KiB, sockets are pinged every 20 s, and a stop
# waits 15 s for requests (a computer's move still waiting for a worker is
# refused then: 503, Retry-After 15). Proxies' headers are Django's business
# (NUM_PROXIES).
UVICORN_FLAGS ?= --http webgame.serving:GuardedHttpProtocol \
	--no-proxy-headers --timeout-keep-alive 5 --ws-max-size 65536 \
	--ws-per-message-deflate false \
	--ws-ping-interval 20 --ws-ping-timeout 20 --timeout-graceful-shutdown 15 \
	--lifespan on
# The load test: players for a while against the server at LOAD_URL, and HOG
# games' long hints from one more client (0: none).
LOAD_URL ?= http://127.0.0.1:8765
PLAYERS ?= 50
HOG ?= 0
RUN_TIME ?= 30s

# `make` alone lists the targets below, each with its `##` line.
.DEFAULT_GOAL := help
.PHONY: help run dev messages test lint loadtest probe bench-start bench-live bench-memory setup setup-test system-packages train-setup clean

help:
	@awk -F ':.*## ' '/^[a-z-]+:.*## / {printf "  make %-16s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: requirements.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements.txt
	touch $@

# The extras install with --no-compile: Python compiles a module's bytecode
# when it is first imported, and the tests import a small part of these
# packages (PyTorch alone has thousands of modules). pip compiling them all
# took 40 of the tests' set-up's 62 s. The app's own packages are compiled at
# install, so that a first start does not wait for it.
$(VENV)/.installed-train: requirements-train.txt $(VENV)/.installed
	$(BIN)/pip install --quiet --no-compile -r requirements-train.txt
	touch $@

$(VENV)/.installed-load: requirements-load.txt | $(BIN)/python
	$(BIN)/pip install --quiet --no-compile -r requirements-load.txt
	touch $@

$(VENV)/.installed-test: requirements-test.txt requirements-train.txt \
		requirements-load.txt $(VENV)/.installed
	$(BIN)/pip install --quiet --no-compile -r requirements-test.txt
	touch $@

setup: $(VENV)/.installed ## the virtual environment .venv with the app's packages

setup-test: $(VENV)/.installed-test ## the same with the tests' packages

# The optional training extra (PyTorch, CPU): `python -m mcts.lab train-net`.
train-setup: $(VENV)/.installed-train ## the training extra (PyTorch, CPU)

# Whether HOST:PORT is free, before anything starts: a server that failed to
# bind still ran its start and its stop, each giving the running clocks a
# restart's time (webgame/routing.py).
define PORT_FREE
import errno, socket, sys
host, port = sys.argv[1], sys.argv[2]
if not port.isdigit() or not 1 <= int(port) <= 65535:
    sys.exit(f"make run: PORT={port!r} is not a port number (1 to 65535)")
with socket.socket() as probe:
    probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        probe.bind((host, int(port)))
    except OSError as error:
        if isinstance(error, socket.gaierror) or error.errno == errno.EADDRNOTAVAIL:
            sys.exit(f"make run: HOST={host!r} is not an address of this machine"
                     f" ({error.strerror}): 127.0.0.1, 0.0.0.0 (all) or one of its own")
        sys.exit(f"make run: {host}:{port} cannot be served ({error.strerror}):"
                 " another server there? Stop it, or choose another PORT=")
endef
export PORT_FREE

# Production-shaped on one machine: uvicorn (ASGI: the page, the API and the
# live games' sockets on one port), DEBUG off, WhiteNoise serving the
# collected static files. One process: without AI_BACKEND=celery the AI's
# bookkeeping and the live games' channel layer live in it (see
# docs/deploy.md); each request runs in a thread of its own. The AI's kernels compile in a process of their own, started
# first and followed by the server (webgame/startup.py), which serves as soon
# as the rules are compiled: the AI is ready in a little over a minute on the first
# start, in a few seconds after.
# The static files are brought up to date by a make of their own, started
# beside the warm-up; named STATIC_MAKE, not MAKE, so that `make -n run` only
# prints the commands (make runs a line naming MAKE even under -n: it served).
STATIC_MAKE = $(MAKE)
run: setup ## serve the page, the API and the sockets (HOST, PORT: 127.0.0.1:8000)
	@$(BIN)/python -c "$$PORT_FREE" '$(HOST)' '$(PORT)'
	@status=$$(mktemp -d -t mcts-warm-XXXXXXXX)/warm.json; \
	$(BIN)/python -m webgame.startup $$status $$$$ & \
	$(STATIC_MAKE) -s --no-print-directory $(STATIC_ROOT)/staticfiles.json && \
	$(BIN)/python manage.py migrate --noinput && \
	AI_WARM_STATUS=$$status exec $(BIN)/uvicorn webgame.asgi:application \
		--host $(HOST) --port $(PORT) $(UVICORN_FLAGS)

# The static files, hashed and compressed for WhiteNoise: again only when a
# source, the packages or the settings changed. The bootstrap package ships
# every build of Bootstrap; the page loads bootstrap.min.css and
# bootstrap.bundle.min.js, and leaving the other builds out keeps a first
# start's collectstatic to a few seconds.
STATIC_IGNORE := bootstrap.rtl* bootstrap-grid* bootstrap-reboot* \
	bootstrap-utilities* bootstrap.esm* bootstrap.css bootstrap.js \
	bootstrap.bundle.js jquery.slim* jquery.js
$(STATIC_ROOT)/staticfiles.json: $(shell find static templates -type f) \
		webgame/settings.py $(VENV)/.installed
	@echo "collecting the page's static files (after a change only)"
	@$(BIN)/python manage.py collectstatic --noinput --verbosity 0 \
		$(foreach pattern,$(STATIC_IGNORE),--ignore '$(pattern)')

# For developers: Django's runserver (reloads on edits) with DEBUG's pages.
dev: setup ## Django's runserver with DEBUG (reloads on edits)
	$(BIN)/python manage.py migrate --noinput
	DEBUG=1 $(BIN)/python manage.py runserver $(HOST):$(PORT)

# Locust, headless, against a running server started with each client named by
# its X-Forwarded-For: `NUM_PROXIES=1 make run PORT=8765` (loadtest/locustfile.py).
# The hog's users count in Locust's -u, hence PLAYERS + HOG.
loadtest: $(VENV)/.installed-load ## Locust against the server at LOAD_URL
	$(BIN)/locust -f loadtest/locustfile.py --headless --only-summary \
		-u $$(($(PLAYERS) + $(HOG))) -r 25 -t $(RUN_TIME) --hog $(HOG) \
		--host $(LOAD_URL)

# The tests need Chromium, Redis and PostgreSQL: installed first if missing
# (apt-get, through sudo when not root; .ci/system-packages says which).
system-packages: ## Chromium, Redis and PostgreSQL for the tests, if missing
	bash .ci/system-packages

# A first start timed from a fresh clone (reusing this .venv): the page, each
# game's AI, the first AI moves, the longest AI move of each game and level.
bench-start: setup ## time a first start from a fresh clone
	$(BIN)/python loadtest/first_start.py --venv $(VENV)

# Hostile clients (slow sockets, many addresses) against the server at
# PROBE_URL, and what another client meets meanwhile.
PROBE_URL ?= http://127.0.0.1:8000
probe: setup ## hostile clients against the server at PROBE_URL
	$(BIN)/python loadtest/probe.py --url $(PROBE_URL)

# The live games' benchmark: 200 spectators' sockets on one game and 20 pairs
# playing, the latency from a move to each socket and any lost update.
bench-live: setup ## 200 spectators and 20 pairs: live updates' latency
	$(BIN)/python loadtest/live_bench.py

# A server's memory while the computer plays itself for 45 minutes (the
# live models growing in a copy of model/): each sample, then the trend.
bench-memory: setup ## a server's memory under 45 minutes of play
	$(BIN)/python loadtest/soak.py

# The translations (locale/, docs/translating.md): gather the page's and the
# API's strings into the catalogs (needs GNU gettext), then compile them. The
# compiled .mo files are committed, so running the site needs no gettext.
MESSAGES_IGNORE := --ignore=staticfiles --ignore=mcts --ignore=tests \
	--ignore=loadtest --ignore=model --ignore=docs
messages: setup ## gather and compile the translations (needs GNU gettext)
	$(BIN)/python manage.py makemessages --locale zh_Hans --no-obsolete \
		--no-location $(MESSAGES_IGNORE)
	$(BIN)/python manage.py makemessages --domain djangojs --locale zh_Hans \
		--no-obsolete --no-location $(MESSAGES_IGNORE)
	$(BIN)/python manage.py compilemessages --locale zh_Hans --ignore=.venv \
		--ignore=staticfiles

# The tests in two runs: first on TEST_WORKERS processes (pytest-xdist) all
# but those that assert how long something takes, then those (marked
# `timing`) alone, since a busy machine would slow what they time. Both run
# even when the first fails. Plain `pytest` runs everything in one process.
# The AI's warm-up fills numba's cache first, two processes (about 55 s on a
# fresh clone, 3 s after): else each worker compiles the same kernels. Its
# failure stops nothing (-): the tests then say what broke.
TEST_WORKERS ?= 2
test: system-packages setup-test ## every test (the README's command)
	-$(BIN)/python -m mcts warm
	$(BIN)/python -m pytest -n $(TEST_WORKERS) -m "not timing"; parallel=$$?; \
	$(BIN)/python -m pytest -m timing && exit $$parallel

lint: setup-test ## ruff and mypy
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

clean: ## remove .venv and the collected static files
	rm -rf $(VENV) $(STATIC_ROOT)
