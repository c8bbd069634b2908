# Build stage: the dependencies in a virtual environment, then a wheel of the project.
# The dependency layer depends on pyproject.toml alone, so a source edit reuses it from the cache.
FROM python:3.11-slim AS build
RUN python -m venv /venv
WORKDIR /src
COPY pyproject.toml ./
RUN python -c "import tomllib; project = tomllib.load(open('pyproject.toml', 'rb'))['project']; print('\n'.join(project['dependencies'] + project['optional-dependencies']['postgres']))" > requirements.txt \
    && /venv/bin/pip install --no-cache-dir -r requirements.txt
COPY README.md LICENSE ./
COPY rules ./rules
COPY rendering ./rendering
COPY bot ./bot
RUN pip wheel --no-cache-dir --no-deps --wheel-dir /wheels .

# Run stage: no compilers, a non-root user, the database on a volume.
FROM python:3.11-slim
RUN useradd --create-home --uid 10001 tabula \
    && mkdir -p /data && chown tabula:tabula /data
# The environment first (cached with the dependencies), then the project on top of it.
COPY --from=build /venv /venv
COPY --from=build /wheels /wheels
RUN /venv/bin/pip install --no-cache-dir --no-deps /wheels/*.whl && rm -rf /wheels
USER tabula
WORKDIR /home/tabula
ENV PATH=/venv/bin:$PATH \
    TABULA_DB=/data/tabula.db \
    PYTHONUNBUFFERED=1
VOLUME ["/data"]
# With TABULA_WEB set, healthy while /healthz answers 200 (store and gateway); without it,
# there is nothing to ask and the check passes.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot", "healthz"]
# `docker stop` sends SIGTERM: the bot finishes in-flight work, closes the database, exits 0.
CMD ["python", "-m", "bot"]
