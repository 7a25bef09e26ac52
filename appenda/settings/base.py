"""Settings shared by every environment. Nothing here decides a business rule."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

from appenda.settings.regions import build_databases, build_storage, region_alias, region_names
from ops.logs import logging_config

BASE_DIR = Path(__file__).resolve().parent.parent.parent
APPENDA_DATA_DIR = Path(os.environ.get("APPENDA_DATA_DIR", BASE_DIR / "var")).resolve()
APPENDA_DATA_DIR.mkdir(parents=True, exist_ok=True)  # the embedded default keeps its files here

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "dev-only-not-secret-change-me")
DEBUG = False
ALLOWED_HOSTS = [h for h in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",") if h]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI and ReDoc served from our static files
    "guardian",
    "django_htmx",
    "csp",
    "axes",  # login throttling per account and per address (issue 22)
    "django_tasks",
    "django_tasks_db",  # the scheduled jobs' queue, on the control database (ops.runner)
    "appenda",
    "workspaces",
    "tables",
    "memories",
    "webapp",
    "ops",
]

MIDDLEWARE = [
    "ops.middleware.RequestObservabilityMiddleware",  # first: request id, one log line, metrics
    "appenda.admission.AdmissionMiddleware",  # sheds load (503 overloaded) before any database work
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
    "axes.middleware.AxesMiddleware",  # last: turns a locked-out sign-in into ops.lockout's page
]

ROOT_URLCONF = "appenda.urls"
WSGI_APPLICATION = "appenda.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "csp.context_processors.nonce",
            ]
        },
    }
]

# --- Databases: control ("default") + one per region -------------------------------------
REGIONS = region_names()
REGION_DB_ALIASES = {region: region_alias(region) for region in REGIONS}
DATABASES = build_databases(APPENDA_DATA_DIR)
DATABASE_ROUTERS = ["appenda.db.router.RegionRouter"]
REGION_STORAGE = build_storage(APPENDA_DATA_DIR)
# Local workspaces (R-REGION-4): one SQLCipher file each under APPENDA_DATA_DIR/local/, with a key
# derived from this passphrase (scrypt). Unset = local workspaces cannot be created or opened.
APPENDA_LOCAL_PASSPHRASE = os.environ.get("APPENDA_LOCAL_PASSPHRASE") or None
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: refuses a locked-out account or address
    "django.contrib.auth.backends.ModelBackend",
    "guardian.backends.ObjectPermissionBackend",
]
GUARDIAN_RAISE_403 = False
ANONYMOUS_USER_NAME = None  # no guardian anonymous user: anonymous callers get nothing

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# `collectstatic` writes here; the image collects at build time into APPENDA_STATIC_ROOT (issue 22).
STATIC_ROOT = Path(os.environ.get("APPENDA_STATIC_ROOT") or APPENDA_DATA_DIR / "static")
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "static"] if (BASE_DIR / "static").exists() else []

LOGIN_URL = "/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/login/"

SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "workspaces.authentication.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": [
        # JSON only: the contracts take JSON (null, lists, booleans), which forms cannot say. The
        # import takes multipart and the records import CSV, each declared on its view.
        "appenda.api.parsers.JSONParser",  # DRF's, refusing bodies nested too deep (400, not 500)
    ],
    "EXCEPTION_HANDLER": "appenda.api.errors.api_exception_handler",
    "DEFAULT_THROTTLE_CLASSES": ["appenda.api.throttling.TokenRateThrottle"],  # APPENDA_API_RATES
    "DEFAULT_SCHEMA_CLASS": "appenda.api.schema.AppendaAutoSchema",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Appenda agent memory API",
    "DESCRIPTION": "Short notes for AI agents: saved, held, refused and recalled as quoted data.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Requests and responses of one shape are separate components (a note's id is read-only).
    "COMPONENT_SPLIT_REQUEST": True,
    # One name for each choice set the API shares (settings cannot import models: paths).
    "ENUM_NAME_OVERRIDES": {
        "LayerEnum": "memories.limits.LAYERS",
        "NoteStateEnum": "memories.limits.NOTE_STATES",
        "SubjectKindEnum": "memories.limits.SUBJECT_KINDS",
        "TurnKindEnum": "memories.limits.TURN_KINDS",
        "AgentUndoStateEnum": "memories.limits.AGENT_UNDO_STATES",
        "ReadSourceEnum": "memories.limits.READ_SOURCES",
    },
    # Request bodies are closed objects, as the contracts refuse unknown fields.
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums",
                             "appenda.api.schema.close_request_bodies"],
    # The docs pages load Swagger UI and ReDoc from our own static files: the CSP below allows
    # no other origin (appenda/api/docs.py).
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# --- Product settings -----------------------------------------------------------------
APPENDA = {
    "TURN_TTL": timedelta(hours=int(os.environ.get("APPENDA_TURN_TTL_HOURS", "1"))),
    "HELD_TTL": timedelta(hours=int(os.environ.get("APPENDA_HELD_TTL_HOURS", "24"))),
    "EXPORT_TTL": timedelta(hours=int(os.environ.get("APPENDA_EXPORT_TTL_HOURS", "24"))),
    "TRASH_TTL": timedelta(days=int(os.environ.get("APPENDA_TRASH_TTL_DAYS", "30"))),
    "MAX_SAVES_PER_TURN": 5,
    "INDEX_KEY": os.environ.get("APPENDA_INDEX_KEY", SECRET_KEY),
}

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
        "base-uri": ["'self'"],
    }
}

# JSON lines with the request id (ops.logs, ops.middleware); APPENDA_LOG_FORMAT=plain for a terminal.
LOGGING = logging_config(level=os.environ.get("LOG_LEVEL", "INFO"), fmt=os.environ.get("APPENDA_LOG_FORMAT", "json"))

# --- Operations (issue 22, R-OPS-2): jobs, rate limits, metrics ---------------------------
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
}
APPENDA_API_RATES = {
    "token": os.environ.get("APPENDA_API_RATE", "600/min"),  # per API token
    "session": os.environ.get("APPENDA_API_RATE", "600/min"),  # per signed-in person in a browser
    "anonymous": os.environ.get("APPENDA_API_ANON_RATE", "120/min"),  # per address, public endpoints
}
# Sign-in: the account or the address is paused after this many failures in a row (django-axes).
AXES_FAILURE_LIMIT = int(os.environ.get("APPENDA_LOGIN_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("APPENDA_LOGIN_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]  # each on its own: per account, and per address
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "ops.lockout.lockout_response"
AXES_VERBOSE = False
# The scheduled jobs (ops.jobs) go through Django's tasks API on the control database.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default", "ops"]}}
APPENDA_JOBS_TICK_SECONDS = float(os.environ.get("APPENDA_JOBS_TICK_SECONDS", "30"))
APPENDA_WORKER_STALE_SECONDS = int(os.environ.get("APPENDA_WORKER_STALE_SECONDS", "120"))
APPENDA_JOBS_IN_PROCESS = os.environ.get("APPENDA_JOBS_IN_PROCESS", "").strip().lower() in ("1", "true", "yes")
APPENDA_JOBS_WITH_RUNSERVER = True  # `make run`: the jobs run in a thread of the dev server
# /metrics: with a token, `Authorization: Bearer <token>`; without, only from this machine.
APPENDA_METRICS_TOKEN = os.environ.get("APPENDA_METRICS_TOKEN") or None
