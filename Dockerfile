# alhambra-bot: the Discord bot in one small image.
#
#   docker build -t alhambra-bot .
#   docker run -d --name alhambra --restart unless-stopped \
#       -e DISCORD_TOKEN=... -v alhambra-data:/data alhambra-bot
#
# The game database lives on the /data volume, so games survive upgrades of the image.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    ALHAMBRA_DB=/data/alhambra.sqlite3

# Fonts for the pictures (render/fonts.py looks for exactly these):
# - fonts-noto-cjk: Japanese, Chinese and Korean player names;
# - fonts-dejavu-core: Latin, accented, Greek, Cyrillic, Arabic and Hebrew;
# - fonts-noto-core: Noto Sans Arabic, for Persian (the `fa` pictures) and Arabic names;
# - libfribidi0: Pillow's Raqm layout loads it at run time to order right-to-left names.
# The CJK package also brings Noto Serif CJK (54 MB) that nothing draws with, and fonts-noto-core
# some 40 MB of other scripts' Noto fonts: removed, all but Noto Sans Arabic regular and bold.
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-noto-cjk fonts-dejavu-core fonts-noto-core \
        libfribidi0 \
    && rm -f /usr/share/fonts/opentype/noto/NotoSerifCJK* \
    && find /usr/share/fonts/truetype/noto -type f ! -name 'NotoSansArabic-Regular.ttf' \
        ! -name 'NotoSansArabic-Bold.ttf' -delete \
    && rm -rf /var/lib/apt/lists/*

RUN useradd --create-home --uid 10001 --shell /usr/sbin/nologin alhambra \
    && mkdir -p /data \
    && chown alhambra:alhambra /data

WORKDIR /app
# The bot runs from /app (`python -m bot` puts it first on sys.path), where migrations/ sits next
# to bot/ as bot/core/migrate.py expects; `pip install .` brings the dependencies.
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY render ./render
COPY bot ./bot
COPY migrations ./migrations
RUN pip install ".[sentry,postgres]"

USER alhambra
VOLUME ["/data"]

# Healthy when the bot can use the game database on the volume: there, writable by uid 10001 (a
# write transaction begins and is rolled back), room left on the volume, at this image's schema
# step. The bot creates and migrates it before logging in to Discord, so a new container is
# healthy within seconds; a full or read-only volume, a root-owned file, a damaged file or a
# schema left behind by another version turns it unhealthy.
# The first check runs one interval (30 s) after the container starts: until then `docker ps`
# says "health: starting". `--start-interval` would check sooner, but older Docker (20.10)
# refuses the flag. docs/deploy/compose.yaml checks liveness instead (`health --live`).
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 \
    CMD ["python", "-m", "bot", "health"]

CMD ["python", "-m", "bot"]
