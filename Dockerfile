# Build stage: wheels for the project and its dependencies.
FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY rules ./rules
COPY rendering ./rendering
COPY bot ./bot
RUN pip wheel --no-cache-dir --wheel-dir /wheels '.[postgres]'

# Run stage: no compilers, a non-root user, the database on a volume.
FROM python:3.11-slim
RUN useradd --create-home --uid 10001 tabula \
    && mkdir -p /data && chown tabula:tabula /data
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels
USER tabula
WORKDIR /home/tabula
ENV TABULA_DB=/data/tabula.db \
    PYTHONUNBUFFERED=1
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
