# The bot in a container: `docker build -t nardy-bot .`, then run it with the settings of
# .env.example in the environment (compose.yaml runs several webhook workers this way).
# Built from requirements.lock (every package pinned with its hashes; CHANGELOG.md and
# docs/operations.md say how to renew it) on a pinned base; VERSION is the release it reports
# (`--build-arg VERSION=0.4.0`: the image has no git history to read the tag from).
FROM python:3.11.14-slim-bookworm

ARG VERSION=0+unknown

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# PostgreSQL's client tools (Debian bookworm's are 15, compose's server): `python -m bot backup`
# and `restore` in the container (docs/operations.md)
RUN apt-get update \
    && apt-get install -y --no-install-recommends postgresql-client \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /src
COPY requirements.lock ./
RUN pip install --require-hashes --no-deps -r requirements.lock
COPY pyproject.toml README.md LICENSE ./
COPY bot ./bot
COPY render ./render
RUN SETUPTOOLS_SCM_PRETEND_VERSION="$VERSION" pip install --no-deps --no-build-isolation . \
    && rm -rf /src \
    && useradd --system --uid 10001 --home-dir /data --create-home nardy

USER nardy
WORKDIR /data
# A SQLite file in /data unless DATABASE_URL says otherwise (mount a volume there to keep it).
# The HTTP server listens on 8080 in both modes, so that the health check below has /healthz
# to ask even when the bot polls.
ENV DATABASE_URL=sqlite:////data/nardy.sqlite3 \
    WEBHOOK_HOST=0.0.0.0 \
    WEBHOOK_PORT=8080
EXPOSE 8080

# 200 from /healthz: the process is up and its database answers (urlopen raises on a 503).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % (os.environ.get('WEBHOOK_PORT') or 8080), timeout=4)"]

# SIGTERM (docker stop) finishes the updates in flight, for up to 10 s: keep the stop
# timeout above that (compose.yaml sets stop_grace_period).
CMD ["python", "-m", "bot"]
