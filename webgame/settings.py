"""Django settings. Everything that varies by deployment comes from the
environment here and only here:

- ``DEBUG``: ``0``/``false`` (default: production-shaped, as ``make run``
  serves) or ``1``/``true`` (``make dev``: Django's debug pages, runserver).
- ``SECRET_KEY``: the key; when unset it is read from ``SECRET_KEY_FILE``
  (default ``.secret_key`` in the project folder, untracked), which the first
  start generates. Several machines must share one key: set it.
- ``ALLOWED_HOSTS``: comma-separated; defaults to localhost names.
- ``HTTPS``: whether the site is reached over HTTPS (redirects, HSTS, secure
  cookies). Default: on unless every allowed host is a loopback name, so
  ``make run`` on localhost speaks plain HTTP and a real host name needs TLS
  (or ``HTTPS=0`` said out loud).
- ``DATABASE_URL``: e.g. ``postgres://user:pass@host/db``; SQLite by default.
- ``STATIC_ROOT``: where ``collectstatic`` puts the files WhiteNoise serves.
- ``LOG_LEVEL``: of the app's loggers (default ``INFO``); 5xx responses are
  always logged with their traceback. ``ACCESS_LOG``: a line per request,
  and uvicorn's lines for each socket (default on). Times are UTC.
- ``AI_WORKERS``: threads that run AI searches at once (default: cores - 1, min 1).
- ``AI_CLIENT_SEARCHES`` (1), ``AI_CLIENT_PENDING`` (2), ``AI_MAX_PENDING``
  (64 x AI_WORKERS): searches one client may run, one client may have running
  or waiting, and all clients together, before the API answers 503.
- ``GAME_CREATE_RATE``: new games and seats (create, import, join, share, rematch) and
  QR codes per client (default ``30/min``, ``off``).
- ``GAME_EXPIRY_DAYS``: ``manage.py expiregames`` deletes games untouched that
  long (default 30).
- ``AI_THROTTLE_RATE``: AI requests (ai-move, hint, analysis, explorer, a
  model's prepare) per client, e.g. ``240/min``; ``off`` disables the
  throttle. ``NUM_PROXIES``: reverse proxies in front of the app whose
  X-Forwarded-For is trusted to name the client (default 0).
- ``AI_NICE``, ``AI_TREE_CACHE``, ``AI_MAX_NODES``, ``MODEL_DIR``,
  ``LIVE_MODEL``, ``LIVE_MODEL_SAVE_EVERY``, ``LIVE_MODEL_MAX_NODES``,
  ``LIVE_SOCKETS_PER_CLIENT``, and with HTTPS ``SECURE_SSL_REDIRECT`` and
  ``SECURE_HSTS_SECONDS``: see below.
- ``AI_BACKEND`` (``local`` or ``celery``) and ``REDIS_URL``: where searches
  run and where their shared state lives (docs/deploy.md).

Three settings act before these are read, when a serving process starts
(:mod:`webgame.startup`, which launches the AI's warm-up before the app is
imported): ``AI_WARM_UP`` (``0`` turns the warm-up off), ``AI_WARM_JOBS``
(its processes; default one a core) and ``AI_WARM_STATUS`` (the status file
of a warm-up already running, which ``make run`` starts first); the first two
are checked here too, so that a value they cannot take stops the start (a
warm-up given ``--jobs abc`` died, and the AI compiled in the server).
"""

from __future__ import annotations

import json
import math
import os
import re
import tempfile
import warnings
from pathlib import Path

import dj_database_url
import xstatic.pkg.jquery
from django.core.exceptions import ImproperlyConfigured

from webgame.secretkey import secret_key_from_file

BASE_DIR = Path(__file__).resolve().parent.parent


def _refuse(name: str, value: str, expected: str):
    """Stop the start on a setting that cannot be used, naming it and what
    it takes (a value read wrong failed later, or at every request)."""
    raise ImproperlyConfigured(f"{name}={value!r}: expected {expected}")


def env_flag(name: str, default: bool) -> bool:
    """Return the boolean value of environment variable ``name``."""
    value = os.environ.get(name)
    if value is None or not value.strip():
        return default
    if value.strip().lower() in ("1", "true", "yes", "on"):
        return True
    if value.strip().lower() in ("0", "false", "no", "off"):
        return False
    return _refuse(name, value, "1, true, yes or on, or 0, false, no or off")


def env_number(name: str, default, low, kind=int, high=None, *, above=False):
    """Return the number (``kind``: int or float) in environment variable
    ``name``, at least ``low`` (``above``: more than ``low``) and at most
    ``high``; ``default`` if it is unset or empty, as for a flag."""
    value = os.environ.get(name)
    if value is None or not value.strip():
        return default
    try:
        number = kind(value)
    except ValueError:
        number = None
    top = math.inf if high is None else high
    if (
        number is None
        or not (low < number if above else low <= number)
        or not number <= top
    ):
        whole = "a whole number" if kind is int else "a number"
        if above:
            bounds = f"more than {low}" + (
                "" if high is None else f" and at most {high}"
            )
        else:
            bounds = f"of at least {low}" if high is None else f"from {low} to {high}"
        _refuse(name, value, f"{whole} {bounds}")
    return number


def env_rate(name: str, default: str) -> str | None:
    """Return the throttle rate in environment variable ``name``, such as
    ``30/min`` (a count per s, min, hour or day), or None for ``off``."""
    value = os.environ.get(name, default)
    if value.strip().lower() in ("", "off", "none"):
        return None
    rate = re.fullmatch(
        r"(\d+)/(s|sec|second|m|min|minute|h|hour|d|day)", value.strip()
    )
    if not rate or int(rate.group(1)) < 1:  # 0/min: every request refused
        _refuse(
            name,
            value,
            "a count of at least 1 per s, min, hour or day (30/min), or off",
        )
    return value.strip()


DEBUG = env_flag("DEBUG", False)
# Read by webgame.startup before this module; checked here (see above).
env_flag("AI_WARM_UP", True)
env_number("AI_WARM_JOBS", None, 1)


def _secret_key() -> str:
    """Return ``SECRET_KEY``, else the key in ``SECRET_KEY_FILE``."""
    key = os.environ.get("SECRET_KEY", "").strip()
    if key:
        return key
    path = Path(os.environ.get("SECRET_KEY_FILE", BASE_DIR / ".secret_key"))
    try:
        return secret_key_from_file(path)
    except OSError as error:
        return _refuse(
            "SECRET_KEY_FILE",
            str(path),
            f"a file this user can create or read ({error.strerror or error})",
        )


SECRET_KEY = _secret_key()

ALLOWED_HOSTS = [
    host.strip()
    for host in (os.environ.get("ALLOWED_HOSTS") or "localhost,127.0.0.1,[::1]").split(
        ","
    )
    if host.strip()
]
# Each a host name, an address or a pattern ("*", ".example.com"): none, or
# a URL or a space (operator QA), refused every request (400).
_HOST = re.compile(r"\*|\.?[A-Za-z0-9.-]+|\[?[0-9A-Fa-f:.]+\]?")
if not ALLOWED_HOSTS or not all(_HOST.fullmatch(host) for host in ALLOWED_HOSTS):
    _refuse(
        "ALLOWED_HOSTS", os.environ["ALLOWED_HOSTS"], "host names, separated by commas"
    )
LOOPBACK_HOSTS = {"localhost", "127.0.0.1", "[::1]", "::1"}
LOOPBACK_ONLY = set(ALLOWED_HOSTS) <= LOOPBACK_HOSTS
HTTPS = env_flag("HTTPS", not LOOPBACK_ONLY)

INSTALLED_APPS = [
    "django.contrib.contenttypes",
    "django.contrib.auth",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "bootstrap",
    "webgame",
]

# WhiteNoise serves the collected static files (``make run`` collects them);
# with DEBUG on, the sources (``make dev``'s runserver serves them itself;
# operator QA: ``DEBUG=1 make run`` served a page without its scripts).
MIDDLEWARE = [
    # GET /healthz, before the host check and the HTTPS redirect (a balancer
    # asks by the machine's address over plain HTTP): webgame/health.py.
    "webgame.health.HealthMiddleware",
    # Then: the refusals of those after it are logged with their client.
    "webgame.clients.ClientMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "webgame.bodies.LengthRequiredMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Every answer names the page's build: an open page sees an upgrade.
    "webgame.build.PageBuildMiddleware",
]

# Under ASGI, Django reads WhiteNoise's file responses (synchronous file
# iterators) whole in a thread and warns of it once a process: harmless for
# these files (the largest, the API docs' bundles, are under 2 MB) and no
# fault, so it stays out of the operator's log. The app's own responses
# never stream.
warnings.filterwarnings(
    "ignore", message="StreamingHttpResponse must consume synchronous iterators"
)

ROOT_URLCONF = "webgame.urls"
WSGI_APPLICATION = "webgame.wsgi.application"
ASGI_APPLICATION = "webgame.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
            ],
        },
    }
]

# No persistent connections: under ASGI each request runs in a thread of its
# own, and a connection kept by a thread that ends would only leak (Django's
# advice for ASGI).
try:
    DATABASES = {
        "default": dj_database_url.config(
            default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}", conn_max_age=0
        )
    }
except ValueError:  # an unknown scheme (dj_database_url.UnknownSchemeError)
    _refuse(
        "DATABASE_URL",
        os.environ.get("DATABASE_URL", ""),
        "a database URL such as postgres://user:pass@host/db or sqlite:///path",
    )
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets readers run while a move is written; the timeout makes racing
    # writers wait their turn instead of failing with "database is locked".
    # A transaction takes the write lock as it begins: one that read first
    # and wrote after another writer failed at once, SQLite not waiting to
    # turn a stale reader into a writer (study walk: the flag watcher's beat).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
    # Tests race threads on one game; an in-memory shared-cache database
    # locks whole tables, so the test database is a file (per process, in the
    # temporary directory, so parallel runs never share one).
    # Operator QA: a database file this user cannot write started a server
    # whose every move was a 500 ("attempt to write a readonly database").
    _database = Path(DATABASES["default"]["NAME"])
    if not os.access(_database if _database.exists() else _database.parent, os.W_OK):
        _refuse("DATABASE_URL", str(_database), "an SQLite file this user can write")
    # Operator QA: a file that is not a database (damaged, or another file
    # named by mistake) stopped the start with migrate's traceback, naming
    # no setting. Empty is fine: SQLite makes a new database of it.
    if _database.is_file() and _database.stat().st_size:
        with _database.open("rb") as head:
            if head.read(16) != b"SQLite format 3\x00":
                _refuse(
                    "DATABASE_URL",
                    str(_database),
                    "an SQLite database (this file is not one: restore it from"
                    " a backup, docs/deploy.md)",
                )
    DATABASES["default"]["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"webgame-test-{os.getpid()}.sqlite3")
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The page and the API's messages speak English and Simplified Chinese: the
# language follows the browser (Accept-Language; zh-CN, zh-SG and zh-Hans
# reach zh-hans through Django's fallbacks) until the page's switch sets the
# language cookie, kept for a year. Catalogs: locale/ (docs/translating.md).
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文")]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
# jQuery comes from the XStatic-jQuery wheel and Bootstrap from the
# django-bootstrap-static app: no CDN, no copies committed.
STATICFILES_DIRS = [BASE_DIR / "static", xstatic.pkg.jquery.BASE_DIR]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "webgame.staticstorage.StaticFilesStorage"
        )
    },
}

# `collectstatic` in a few seconds, not 26 (`make run` runs it on a first
# start): only the hashed names are kept (the pages ask for no other), and
# source maps (27 MB of the packages' files, for developer tools only) are
# served uncompressed.
WHITENOISE_KEEP_ONLY_HASHED_FILES = True
WHITENOISE_USE_FINDERS = WHITENOISE_AUTOREFRESH = DEBUG
WHITENOISE_SKIP_COMPRESS_EXTENSIONS = (
    *__import__("whitenoise.compress").compress.Compressor.SKIP_COMPRESS_EXTENSIONS,
    "map",
)

# Content-Security-Policy: everything from this origin only, no inline
# script (the API docs page loads its script from a URL for this), no
# framing. Inline style attributes stay allowed: the page's markup sets
# initial widths with them, and Bootstrap's form controls draw their icons
# from data: URLs.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

#: Where AI searches run: ``local`` (this process's threads, the default) or
#: ``celery`` (Celery workers on any machine, with REDIS_URL: the broker, and
#: the searches' shared state, limits and throttles; see webgame/backends.py).
AI_BACKEND = os.environ.get("AI_BACKEND", "local").strip().lower()
REDIS_URL = os.environ.get("REDIS_URL", "")
if AI_BACKEND not in ("local", "celery"):
    _refuse("AI_BACKEND", AI_BACKEND, "local or celery")
if REDIS_URL and not REDIS_URL.startswith(("redis://", "rediss://", "unix://")):
    # Else the server started, and every new game failed with a 500.
    _refuse("REDIS_URL", REDIS_URL, "redis://host:port/db, rediss://… or unix://…")
if AI_BACKEND == "celery" and not REDIS_URL:
    raise ImproperlyConfigured("AI_BACKEND=celery needs REDIS_URL")
if REDIS_URL:
    # The throttles' counters live in the cache: in Redis they hold across
    # every web process.
    CACHES: dict[str, dict[str, object]] = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
        }
    }
else:
    # One process's memory. It holds the live games' presence (who is
    # connected, since when a seat is gone: a claim rests on it) and the
    # throttles, so it must not drop entries as Django's default of 300 does
    # once full (a few dozen games with their watchers); a million small
    # entries are some hundred MB at most, and each expires.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "OPTIONS": {"MAX_ENTRIES": 1_000_000},
        }
    }
# Live games (webgame/consumers.py): one process's memory carries each
# change to the sockets it holds; with REDIS_URL, Redis carries it to every
# web process's sockets.
# A socket's queue holds 1,000 messages (Channels' default of 100 dropped
# updates when a crowd of watchers arrived at once: make bench-live).
CHANNEL_LAYERS = {
    "default": (
        {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "capacity": 1000},
        }
        if REDIS_URL
        else {
            "BACKEND": "channels.layers.InMemoryChannelLayer",
            "CONFIG": {"capacity": 1000},
        }
    )
}
#: A client's open sockets at most (a player's tabs, a family behind one NAT
#: watching), and each socket's messages: a burst, then a rate.
LIVE_SOCKETS_PER_CLIENT = env_number("LIVE_SOCKETS_PER_CLIENT", 32, 1)
LIVE_MESSAGES_BURST = 20
LIVE_MESSAGES_PER_SECOND = 2.0
#: A seat with no socket and no request for this long has left its game: its
#: friend may claim the win or a draw (webgame/services/presence.py). A game
#: without a clock waits longer: nobody is pressed there, and a phone's
#: locked screen or a tunnel lost the game in 30 s (network QA).
LIVE_GONE_SECONDS = 30
LIVE_GONE_UNTIMED_SECONDS = 120
CELERY_BROKER_URL = REDIS_URL
# A search is worth nothing once its client gave up: no retries, no results
# kept by Celery (the search's answer goes back through its own Redis key),
# one task at a time per worker thread (the search task is acknowledged when
# it ends, so a busy worker reserves no second one: webgame/tasks.py).
CELERY_TASK_IGNORE_RESULT = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_ACKS_LATE = False
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True

#: Where the tree models live: model/<game>/<name>/.
MODEL_DIR = Path(os.environ.get("MODEL_DIR", BASE_DIR / "model"))
if not MODEL_DIR.is_dir():
    # Else the server started, and the page's first game was refused.
    _refuse("MODEL_DIR", str(MODEL_DIR), "a folder that holds the tree models")
if not os.access(MODEL_DIR, os.W_OK):
    # Operator QA: the server started, then every finished game logged an
    # error (the live model, a full model unpacked, are written there).
    _refuse("MODEL_DIR", str(MODEL_DIR), "a folder this user can write")

# Request bodies are small JSON documents (the longest is an imported game
# record); anything bigger is refused with 413 before it is parsed.
DATA_UPLOAD_MAX_MEMORY_SIZE = 64 * 1024

#: AI searches are shared fairly (webgame/services/workers.py): at most
#: AI_WORKERS run at once, AI_CLIENT_SEARCHES of them for one client; the
#: others wait, clients taking turns. A client may have AI_CLIENT_PENDING
#: searches running or waiting, the server AI_MAX_PENDING; beyond, 503.
AI_WORKERS = env_number("AI_WORKERS", max(1, (os.cpu_count() or 2) - 1), 1)
AI_CLIENT_SEARCHES = env_number("AI_CLIENT_SEARCHES", 1, 1)
AI_CLIENT_PENDING = env_number("AI_CLIENT_PENDING", 2, 1)
AI_MAX_PENDING = env_number("AI_MAX_PENDING", 64 * AI_WORKERS, 1)
#: New games and seats (create, import, join, share, rematch) and QR codes per
#: client, e.g. ``30/min``; ``off``: no limit.
GAME_CREATE_RATE = env_rate("GAME_CREATE_RATE", "30/min")
#: Days after its last change that ``manage.py expiregames`` deletes a game.
#: The most days back a date can go from today (year 1).
MAX_EXPIRY_DAYS = 700_000
# More than 0: expiregames would delete every game.
GAME_EXPIRY_DAYS = env_number(
    "GAME_EXPIRY_DAYS", 30.0, 0, float, high=MAX_EXPIRY_DAYS, above=True
)
#: How much lower the AI worker threads' CPU priority is (Linux nice, 0..19),
#: so that web requests are served first while searches run.
AI_NICE = env_number("AI_NICE", 10, 0, high=19)
#: Per-client rate of AI requests (ai-move, hint, analysis, explorer, a model's
#: prepare); None disables the throttle.
AI_THROTTLE_RATE = env_rate("AI_THROTTLE_RATE", "240/min")
#: Search trees of recent games kept in memory between requests (a hint's tree
#: serves the AI move that follows), and the node cap of each (~23 bytes a node).
AI_TREE_CACHE = env_number("AI_TREE_CACHE", 4, 0)
AI_MAX_NODES = env_number("AI_MAX_NODES", 2_000_000, 1000)
#: The tree model that grows from the games the AI plays (model/<game>/NAME/,
#: seeded from full, else light; webgame/services/livegrowth.py), saved every
#: LIVE_MODEL_SAVE_EVERY finished games and pruned to LIVE_MODEL_MAX_NODES
#: nodes when it outgrows them; empty: none.
LIVE_MODEL = os.environ.get("LIVE_MODEL", "live").strip()


def _shipped_models() -> set[str]:
    """Return the names of the models the checkout ships (built by self-play
    or training, or packed: ``full``), which the live model must not grow
    over (operator QA: LIVE_MODEL=light rewrote the light model)."""
    names = {path.name.split(".")[0] for path in MODEL_DIR.glob("*/*.tar.xz")}
    for manifest in MODEL_DIR.glob("*/*/manifest.json"):
        try:
            built = json.loads(manifest.read_text()).get("built") or {}
        except (OSError, ValueError):
            continue
        if built.get("by") != "live":
            names.add(manifest.parent.name)
    return names


if LIVE_MODEL and not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]*", LIVE_MODEL):
    _refuse("LIVE_MODEL", LIVE_MODEL, "a folder name (letters, digits, - and _)")
if LIVE_MODEL in _shipped_models():
    _refuse("LIVE_MODEL", LIVE_MODEL, "a name no shipped model has, or empty")
LIVE_MODEL_SAVE_EVERY = env_number("LIVE_MODEL_SAVE_EVERY", 10, 1)
LIVE_MODEL_MAX_NODES = env_number("LIVE_MODEL_MAX_NODES", 1_500_000, 1000)

REST_FRAMEWORK = {
    # No accounts: games are reached by their unguessable id, so there is no
    # session and no CSRF token to juggle in API clients.
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    # Anyone may play, but a request that changes something must be JSON: a
    # cross-site form cannot send that (webgame/permissions.py).
    "DEFAULT_PERMISSION_CLASSES": ["webgame.permissions.JSONRequestsOnly"],
    "UNAUTHENTICATED_USER": None,
    # JSON only, refused before decoding when it nests absurdly deep.
    "DEFAULT_PARSER_CLASSES": ["webgame.parsers.BoundedJSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "EXCEPTION_HANDLER": "webgame.error_responses.api_exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # Throttling identifies clients by address. Trust X-Forwarded-For only for
    # the number of proxies in front of the app (0: use the socket's address),
    # or any client could dodge the throttle by inventing the header.
    "NUM_PROXIES": env_number("NUM_PROXIES", 0, 0),
    # The format suffix/query override is not used; freeing ``format`` keeps a
    # stray ?format=xyz from turning into a 404.
    "URL_FORMAT_OVERRIDE": None,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Board games API",
    # The overview on the docs page: notation, board, records, concurrency, errors.
    "DESCRIPTION": (BASE_DIR / "webgame" / "api.md").read_text(encoding="utf-8"),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI and ReDoc from the drf-spectacular-sidecar wheel: no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "webgame.schema.strict_requests",
        "webgame.schema.seats_and_waits",
    ],
    "ENUM_NAME_OVERRIDES": {
        "ColorEnum": "webgame.serializers.COLORS",
        "GameNameEnum": "webgame.serializers.GAME_NAMES",
        "GameStatusEnum": "webgame.serializers.GAME_STATUSES",
        "SeatChoiceEnum": "webgame.serializers.SEAT_CHOICES",
        "ModelStatusEnum": "webgame.serializers.MODEL_STATUSES",
        "PlayerKindEnum": "webgame.serializers.PLAYER_KINDS",
        "ProvenEnum": "webgame.serializers.PROVEN",
        "OpeningNameEnum": "webgame.serializers.OPENING_NAMES",
        "OpeningChoiceEnum": "webgame.serializers.OPENING_CHOICES",
    },
}

if HTTPS:
    SECURE_SSL_REDIRECT = env_flag("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_number("SECURE_HSTS_SECONDS", 31_536_000, 0)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
elif LOOPBACK_ONLY:
    # Plain HTTP on the loopback only (make run's default): there is no TLS to
    # redirect to, pin (HSTS) or mark cookies for, and nothing crosses a
    # network. These three checks are about TLS and nothing else; all others
    # stay on, and a public host without HTTPS still fails them.
    SILENCED_SYSTEM_CHECKS = [
        "security.W004",  # SECURE_HSTS_SECONDS
        "security.W008",  # SECURE_SSL_REDIRECT
        "security.W016",  # CSRF_COOKIE_SECURE
    ]
else:
    # Plain HTTP at a network address, HTTPS=0 said out loud (a friend's
    # phone on a home network: README, Playing). Browsers ignore the opener
    # policy of such an origin and log an error on each load: not sent.
    SECURE_CROSS_ORIGIN_OPENER_POLICY = None

# Errors reach the process's standard error (uvicorn's, the terminal's):
# every 5xx with its traceback (django.request logs them at ERROR with the
# exception), warnings and the app's own INFO messages; Django's 4xx warnings
# (404, 409, ...) are the API working as documented and are not logged.
#: How much the app's own loggers say (webgame.*).
LOG_LEVEL = os.environ.get("LOG_LEVEL", "INFO").strip().upper()
if LOG_LEVEL not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
    _refuse("LOG_LEVEL", LOG_LEVEL, "DEBUG, INFO, WARNING, ERROR or CRITICAL")
#: Whether each request is logged (uvicorn's access line); off, only the
#: app's lines and errors are (uvicorn's --no-access-log was undone here).
ACCESS_LOG = env_flag("ACCESS_LOG", True)
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
        # uvicorn's lines with the time too, as the app's (operator QA): its
        # access line for each request, and its others (its logger is named
        # uvicorn.error whatever the line says).
        "uvicorn": {"format": "%(asctime)s %(levelname)s uvicorn: %(message)s"},
        "access": {
            "()": "uvicorn.logging.AccessFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s: "
            '%(client_addr)s - "%(request_line)s" %(status_code)s',
            "use_colors": False,
        },
    },
    # Expected refusals (a bad Host, the AI busy) are one WARNING line, not
    # an ERROR with a traceback (webgame/logfilters.py).
    "filters": {
        "refusals": {"()": "webgame.logfilters.ExpectedRefusal"},
        "health": {"()": "webgame.logfilters.PassedHealthCheck"},
        "sockets": {"()": "webgame.logfilters.SocketLines"},
    },
    "handlers": {
        "stderr": {"class": "logging.StreamHandler", "formatter": "plain"},
        "uvicorn": {
            "class": "logging.StreamHandler",
            "formatter": "uvicorn",
            "filters": [] if ACCESS_LOG else ["sockets"],
        },
        "access": {
            "class": "logging.StreamHandler",
            "formatter": "access",
            "stream": "ext://sys.stdout",
            "filters": ["health"],
        },
    },
    "root": {"handlers": ["stderr"], "level": "WARNING"},
    "loggers": {
        "django": {"level": "INFO"},
        "django.request": {"level": "ERROR", "filters": ["refusals"]},
        "django.security.DisallowedHost": {"filters": ["refusals"]},
        "django.server": {"level": "INFO"},  # runserver's request lines (make dev)
        "webgame": {"level": LOG_LEVEL},
        "uvicorn.error": {"handlers": ["uvicorn"], "level": "INFO", "propagate": False},
        "uvicorn.access": {
            "handlers": ["access"],
            "level": "INFO" if ACCESS_LOG else "WARNING",
            "propagate": False,
        },
    },
}
