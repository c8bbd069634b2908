# syntax=docker/dockerfile:1
# Python 3.11.14, slim Debian bookworm, pinned by tag and by the digest of its multi-platform
# index: a rebuild starts from the same bytes. To move to a newer base, change both together
# (`docker buildx imagetools inspect python:3.11.14-slim-bookworm` prints the current digest).
ARG PYTHON_IMAGE=python:3.11.14-slim-bookworm@sha256:65a93d69fa75478d554f4ad27c85c1e69fa184956261b4301ebaf6dbb0a3543d

# Build stage: the locked dependencies in a virtual environment, the code compiled beside it.
FROM ${PYTHON_IMAGE} AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
# The venv gets no pip or setuptools of its own: the base image's pip installs into it.
RUN python -m venv --without-pip /venv
# The dependency layer depends on the lock file alone, so a source edit reuses it from the
# cache. Every package is pinned and hash-checked (requirements.lock, from pip-compile).
COPY requirements.lock /tmp/requirements.lock
RUN python -m pip --python /venv/bin/python install --no-deps --require-hashes \
        -r /tmp/requirements.lock
# The project runs from its source (no wheel built, none installed): bytecode compiled here,
# as the run stage's code is read-only to the bot's user.
COPY rules /app/rules
COPY rendering /app/rendering
COPY bot /app/bot
# Read by `python -m bot --version` (the image installs no package metadata).
COPY pyproject.toml /app/pyproject.toml
RUN python -m compileall -q --invalidation-mode unchecked-hash /app

# Run stage: the venv and the code copied in; no compilers, no pip in the venv, no wheels.
FROM ${PYTHON_IMAGE}
ARG REVISION=unknown
LABEL org.opencontainers.image.title="Tabula" \
      org.opencontainers.image.description="Play-by-chat board games in Discord: Palatinus, Palermo, Hadrian's Wall and Minerva." \
      org.opencontainers.image.version="0.1.0" \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.base.name="docker.io/library/python:3.11.14-slim-bookworm" \
      org.opencontainers.image.base.digest="sha256:65a93d69fa75478d554f4ad27c85c1e69fa184956261b4301ebaf6dbb0a3543d"
# A fixed numeric uid and gid (10001): a bind-mounted /data must be writable by it.
RUN groupadd --gid 10001 tabula \
    && useradd --uid 10001 --gid 10001 --no-create-home --home-dir /data --shell /usr/sbin/nologin tabula \
    && mkdir -p /data \
    && chown 10001:10001 /data
COPY --from=build /venv /venv
COPY --from=build /app /app
USER 10001:10001
WORKDIR /data
ENV PATH=/venv/bin:$PATH \
    PYTHONPATH=/app \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    TABULA_DB=/data/tabula.db \
    TABULA_HEARTBEAT=/tmp/tabula-heartbeat
VOLUME ["/data"]
# The web pages' port in the guides' TABULA_WEB=0.0.0.0:8080 (pages are off unless it is set).
EXPOSE 8080
# Healthy while the gateway is connected (the bot rewrites its heartbeat every 10 s) or, with
# TABULA_WEB set, while /healthz answers 200 (the store and the gateway).
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot", "healthcheck"]
# `docker stop` sends SIGTERM: the bot finishes in-flight work, closes the database, exits 0.
CMD ["python", "-m", "bot"]
