"""The tree models on disk: which a client may name, what each is doing, and
getting one ready for play.

A model is shipped either as a folder (``model/<game>/<name>/``) or packed
(``model/<game>/<name>.tar.xz``, the way the large full models come) and
unpacked on first use. Its status, for the page's progress bar:

- ``packed``: shipped packed, not unpacked yet;
- ``unpacking``: being unpacked (``progress`` from 0 to 1);
- ``on_disk``: a folder this process has not loaded;
- ``loading``: being loaded, every line checked;
- ``ready``: loaded in this process: the AI plays with it at once;
- ``damaged``: it cannot be used (``detail`` names the file and line).

Getting a model ready runs once per model and process, behind a lock per
model: a page asks for it ahead (:func:`prepare_model`, a background thread)
and the AI's own use (:func:`ready_model`) waits for the same work rather
than doing it twice. Models are named by clients but found here: only names
listed on disk are accepted, so no path from a client is ever opened, and no
server path is ever shown to one.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import shutil
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.utils.translation import gettext as _

from mcts import (
    GAMES,
    ModelError,
    find_game,
    load_shared,
    model_path,
    packed_path,
    unpack_model,
    unpacked_is_stale,
)
from mcts import list_models as library_models

from ..errors import ModelNotFound, ServiceError
from .notation import board_words
from .rules import rule_words

logger = logging.getLogger(__name__)

#: A model's name: a folder name, no path (the API's model URLs, the
#: explorer's query and the listing all use this one pattern).
MODEL_NAME_PATTERN = r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}"
_MODEL_NAME = re.compile(MODEL_NAME_PATTERN)

#: What a model's manifest says about its build that a client may see: the
#: settings and counts, not the command line (it names the builder's folders).
_PRIVATE_BUILD_FACTS = ("command",)


#: The damaged models this process has logged: each once.
_DAMAGED_LOGGED: set[tuple[str, str, str, str]] = set()


def _log_damaged(game: str, name: str, fault: str) -> None:
    """Log a WARNING, once, that model ``name`` of ``game`` cannot be used:
    clients are refused with its fault, which the log showed only as their
    refusals (operator QA)."""
    key = (str(settings.MODEL_DIR), game, name, fault)
    if key not in _DAMAGED_LOGGED:
        _DAMAGED_LOGGED.add(key)
        logger.warning(
            "model %s of %s is damaged and cannot be used: %s", name, game, fault
        )


def log_damaged_models() -> None:
    """Look at every game's models, logging each damaged one (at a start)."""
    for game in GAMES:
        list_models(game)


#: The folders (and files) a model's unpacking or saving makes beside it,
#: and removes once done (:mod:`mcts.models`): ".unpack-full-<pid>-…",
#: ".live.tmp-…", ".live.old-…", ".stale-…", ".full.tar.xz.tmp-…". A
#: process killed meanwhile leaves them.
_HALF_MADE = re.compile(r"\.(unpack-|stale-|.+\.tmp-|.+\.old-).*")
#: Half-made folders younger than this may be another process's at work.
LEFTOVER_SECONDS = 3600


def remove_leftovers() -> None:
    """Remove the half-made folders and files beside the models that a
    killed process left (at a start), each an hour old or more, saying so
    in the log."""
    now = time.time()
    for path in Path(settings.MODEL_DIR).glob("*/.*"):
        if not _HALF_MADE.fullmatch(path.name):
            continue
        with contextlib.suppress(OSError):  # gone meanwhile, or not ours
            if now - path.stat().st_mtime < LEFTOVER_SECONDS:
                continue
            if path.is_dir():
                shutil.rmtree(path)
            else:
                path.unlink()
            logger.info(
                "removed %s, left half-made by a server stopped meanwhile", path
            )


def preload_light_models(game: str) -> None:
    """Load ``game``'s light models, which the page picks by default (under
    a rule of its own, that rule's: ``light-renju``): a first renju game's
    first AI move waited 4 s for it (the light model itself is loaded by the
    warm-up's play). One that cannot be loaded is logged by its preparation."""
    for entry in list_models(game):
        light = entry["name"] == "light" or entry["name"].startswith("light-")
        if light and not entry["damaged"] and not entry["packed"]:
            with contextlib.suppress(ServiceError):
                PREPARATIONS.ready(game, entry["name"])


def list_models(game: str) -> list[dict]:
    """Return the tree models on disk for ``game``: name, nodes, bytes, built
    (how it was made, from its manifest, without the command line that names
    the builder's folders), packed (shipped as an archive not unpacked yet),
    damaged (what is wrong with a damaged one, naming the file and line in
    the model's folder; else None) and status (see the module), sorted by
    name. Only models whose folder name a client could send are listed."""
    listed = []
    for model in library_models(Path(settings.MODEL_DIR), game):
        if not _MODEL_NAME.fullmatch(model.name):
            continue
        entry = {**model.to_json(), "built": _public_build_facts(model.built)}
        if model.damaged:
            _log_damaged(game, model.name, model.damaged)
        entry.update(PREPARATIONS.status(game, model.name, entry))
        listed.append(entry)
    return listed


def _public_build_facts(built: dict | None) -> dict | None:
    """Return the manifest's build facts without the command line."""
    if built is None:
        return None
    return {k: v for k, v in built.items() if k not in _PRIVATE_BUILD_FACTS}


def model_fault(error: Exception) -> str:
    """Return the text of a model's fault with the models' folder on this
    server left out (``reversi/light/nodes.jsonl line 3: ...``): a client
    never sees a server path."""
    text = str(error)
    for folder in {Path(settings.MODEL_DIR), Path(settings.MODEL_DIR).resolve()}:
        text = text.replace(str(folder) + os.sep, "").replace(str(folder), "")
    return text


def check_model(game: str, name: str | None, options: dict | None = None) -> str | None:
    """Return the model name (None for no model); ServiceError ``unknown_model``
    unless it is a model on disk, ``model_unavailable`` if it is damaged,
    ``model_other_rule`` if it learned another rule than the game's
    ``options`` play (a Gomoku model learned one rule; without a ``rule`` in
    its options, the game's default), ``model_other_board`` if it is a
    network trained on another board (its weights are for that board; a
    tree model on another board only never meets a position it knows)."""
    if name is None or name == "none":
        return None
    listed = _listed(game, name, or_none=True)
    if listed.get("network") and options is not None:
        trained = listed.get("options") or {}
        if any(
            trained.get(key, options[key]) != options[key]
            for key in ("size", "row")
            if key in options
        ):
            raise ServiceError(
                "model_other_board",
                _(
                    "model %(name)s is a network trained on %(trained)s and this "
                    "game is on %(board)s: choose that board, another model, or none"
                )
                % {
                    "name": repr(name),
                    "trained": board_words(trained),
                    "board": board_words(options),
                },
            )
    rule = (options or {}).get("rule")
    if rule is not None:
        learned = (listed.get("options") or {}).get("rule") or find_game(
            game
        ).options.get("rule")
        if learned != rule:
            raise ServiceError(
                "model_other_rule",
                _(
                    "model %(name)s learned the %(learned)s rule and this game "
                    "plays %(rule)s: choose a model of that rule, or none"
                )
                % {
                    "name": repr(name),
                    "learned": rule_words(learned),
                    "rule": rule_words(rule),
                },
            )
    return name


def _listed(
    game: str, name: str, *, missing: type | None = None, or_none: bool = False
) -> dict:
    """Return the listing of model ``name`` of ``game``; if there is none,
    ``missing(game, name)`` when given, else ServiceError ``unknown_model``
    naming the models there are (and, ``or_none``, that no model is a
    choice too); ``model_unavailable`` if it is damaged."""
    models = {model["name"]: model for model in list_models(game)}
    if name not in models:
        if missing is not None:
            raise missing(game, name)
        if or_none:
            message = _(
                "unknown model %(name)s for %(game)s; models: %(models)s (or null "
                "/ 'none' for no model)"
            )
        else:
            message = _("unknown model %(name)s for %(game)s; models: %(models)s")
        known = ", ".join(models) or _("none on disk yet")
        raise ServiceError(
            "unknown_model",
            message % {"name": repr(name), "game": game, "models": known},
        )
    if models[name]["damaged"]:
        raise ServiceError(
            "model_unavailable",
            _("model %(name)s for %(game)s is damaged: %(fault)s")
            % {"name": repr(name), "game": game, "fault": models[name]["damaged"]},
        )
    return models[name]


def _status(game: str, model: dict) -> dict:
    """Return the status answer of a listed model."""
    keys = ("name", "status", "progress", "detail")
    return {"game": game, **{key: model[key] for key in keys}}


def model_status(game: str, name: str) -> dict:
    """Return ``{game, name, status, progress, detail}`` for a model on disk
    (ModelNotFound, a 404, for any other name)."""
    model = next((m for m in list_models(game) if m["name"] == name), None)
    if model is None:
        raise ModelNotFound(game, name)
    return _status(game, model)


def listed_model(game: str, name: str) -> dict:
    """Return the listing of model ``name`` of ``game`` (nodes, packed ...);
    ServiceError ``unknown_model`` or ``model_unavailable`` otherwise."""
    return _listed(game, name)


def prepare_model(game: str, name: str) -> dict:
    """Start getting model ``name`` of ``game`` ready (unpacked and loaded) in
    the background unless it is or is on its way; return its status."""
    listed = _listed(game, name, missing=ModelNotFound)
    if listed["status"] not in ("ready", "unpacking", "loading"):
        PREPARATIONS.start(game, name, packed=listed["status"] == "packed")
        listed = {**listed, **PREPARATIONS.status(game, name, listed)}
    return _status(game, listed)


def ready_model(game: str, name: str):
    """Return the loaded model ``name`` of ``game`` (a :class:`mcts.Model`),
    unpacking and loading it first if need be (waiting for a preparation
    already under way); ServiceError naming the fault if it cannot be used.

    A model this process has ready is not listed again: a large model's
    manifest (its block checksums) takes milliseconds to read, every AI move."""
    if not PREPARATIONS.is_ready(game, name):
        _listed(game, name)
    return PREPARATIONS.ready(game, name)


@dataclass
class _Progress:
    """Where a model's preparation is: its status, how far, and why it failed."""

    status: str
    progress: float | None = None
    detail: str | None = None


class Preparations:
    """The models this process is getting ready or has ready, with a lock per
    model so that the work is done once however many ask."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._locks: dict[tuple[str, str], threading.Lock] = {}
        self._progress: dict[tuple[str, str], _Progress] = {}

    def status(self, game: str, name: str, listed: dict) -> dict:
        """Return ``{status, progress, detail}`` of a listed model: what this
        process is doing with it, else what its listing says."""
        key = (game, name)
        with self._guard:
            known = self._progress.get(key)
        if listed["damaged"]:
            return {"status": "damaged", "progress": None, "detail": listed["damaged"]}
        if known is not None and not (known.status == "ready" and listed["packed"]):
            return {
                "status": known.status,
                "progress": known.progress,
                "detail": known.detail,
            }
        status = "packed" if listed["packed"] else "on_disk"
        return {"status": status, "progress": None, "detail": None}

    def is_ready(self, game: str, name: str) -> bool:
        """Return whether this process has loaded the model."""
        with self._guard:
            known = self._progress.get((game, name))
        return known is not None and known.status == "ready"

    def start(self, game: str, name: str, *, packed: bool) -> None:
        """Get the model ready in a background thread (a failure is kept as
        its ``damaged`` status, for the page to show)."""

        def work() -> None:
            # A failure is kept in the model's status by ready().
            with contextlib.suppress(ServiceError):
                self.ready(game, name)

        self._set(game, name, _Progress("unpacking" if packed else "loading", 0.0))
        thread = threading.Thread(target=work, name=f"prepare-{name}", daemon=True)
        thread.start()

    def ready(self, game: str, name: str):
        """Return the loaded model, unpacking and loading it first if need be."""
        key = (game, name)
        with self._guard:
            lock = self._locks.setdefault(key, threading.Lock())
        folder = model_path(game, name, settings.MODEL_DIR)
        with lock:
            try:
                archive = packed_path(folder)
                # A folder left from an older archive is unpacked again.
                if not folder.is_dir() or unpacked_is_stale(archive):
                    self._set(game, name, _Progress("unpacking", 0.0))

                    def advance(fraction: float) -> None:
                        step = _Progress("unpacking", round(fraction, 3))
                        self._set(game, name, step)

                    unpack_model(archive, progress=advance)
                self._set(game, name, _Progress("loading"))
                model = load_shared(folder)
                # The index of its positions too (seconds for a full model),
                # so that the first AI move with it does not wait for that.
                model.index  # noqa: B018 - built on first use
            except (ModelError, OSError) as error:
                # An unwritable or full disk fails the unpacking as surely as
                # a damaged file (it waited at 0% for good: QA).
                detail = (
                    model_fault(error)
                    if isinstance(error, ModelError)
                    else _("the server could not unpack it (%(error)s)")
                    % {"error": error.strerror or error}
                )
                if isinstance(error, OSError):
                    logger.error("model %s of %s: %s", name, game, error)
                else:
                    _log_damaged(game, name, detail)
                self._set(game, name, _Progress("damaged", detail=detail))
                raise ServiceError(
                    "model_unavailable",
                    _("model %(name)s cannot be used: %(fault)s")
                    % {"name": repr(name), "fault": detail},
                ) from None
            self._set(game, name, _Progress("ready", 1.0))
            return model

    def _set(self, game: str, name: str, progress: _Progress) -> None:
        with self._guard:
            self._progress[(game, name)] = progress


#: This process's model preparations.
PREPARATIONS = Preparations()
