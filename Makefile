# The two commands of the README: `make run` and `make test`.
# Both create the virtual environment .venv themselves (needs python3 with venv).
# `make loadtest` runs the load test against a server already running.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# gunicorn's threads in its one worker process: each waiting AI request holds
# one (AI_MAX_PENDING, 64 a search thread), and the rest serve the others.
THREADS ?= 128
# The load test: players for a while against the server at LOAD_URL, and HOG
# games' long hints from one more client (0: none).
LOAD_URL ?= http://127.0.0.1:8765
PLAYERS ?= 50
HOG ?= 0
RUN_TIME ?= 30s

.PHONY: run dev test lint loadtest setup setup-test train-setup clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: requirements.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.installed-train: requirements-train.txt $(VENV)/.installed
	$(BIN)/pip install --quiet -r requirements-train.txt
	touch $@

$(VENV)/.installed-load: requirements-load.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements-load.txt
	touch $@

$(VENV)/.installed-test: requirements-test.txt requirements-train.txt \
		requirements-load.txt $(VENV)/.installed
	$(BIN)/pip install --quiet -r requirements-test.txt
	touch $@

setup: $(VENV)/.installed

setup-test: $(VENV)/.installed-test

# The optional training extra (PyTorch, CPU): `python -m mcts.lab train-net`.
train-setup: $(VENV)/.installed-train

# Production-shaped on one machine: gunicorn, DEBUG off, WhiteNoise serving the
# collected static files. One worker process with threads: without
# AI_BACKEND=celery the AI's bookkeeping lives in that process (see
# docs/deploy.md). `mcts warm` compiles the AI's kernels
# before the server starts (once per checkout, cached after), not on the first
# AI move, where numba's compiler would stall every request.
run: setup
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	$(BIN)/python -m mcts warm
	$(BIN)/gunicorn webgame.wsgi --bind $(HOST):$(PORT) --workers 1 \
		--threads $(THREADS) --access-logfile - --graceful-timeout 15

# For developers: Django's runserver (reloads on edits) with DEBUG's pages.
dev: setup
	$(BIN)/python manage.py migrate --noinput
	DEBUG=1 $(BIN)/python manage.py runserver $(HOST):$(PORT)

# Locust, headless, against a running server started with each client named by
# its X-Forwarded-For: `NUM_PROXIES=1 make run PORT=8765` (loadtest/locustfile.py).
# The hog's users count in Locust's -u, hence PLAYERS + HOG.
loadtest: $(VENV)/.installed-load
	$(BIN)/locust -f loadtest/locustfile.py --headless --only-summary \
		-u $$(($(PLAYERS) + $(HOG))) -r 25 -t $(RUN_TIME) --hog $(HOG) \
		--host $(LOAD_URL)

test: setup-test
	$(BIN)/python -m pytest

lint: setup-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

clean:
	rm -rf $(VENV) staticfiles
