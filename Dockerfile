# Suzhou mahjong scorekeeper bot: `docker build -t mahjong-bot .`
# Run: docker run -d --name mahjong -e TELEGRAM_BOT_TOKEN=... -v mahjong-data:/data mahjong-bot
# Settings come from the environment at run time (TELEGRAM_BOT_TOKEN, DATABASE_URL, MODE, WEBHOOK_URL, ...);
# nothing secret is baked into the image.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    MPLCONFIGDIR=/opt/matplotlib \
    DATA_DIR=/data

# Noto Sans CJK for Chinese names on the session chart; tzdata for the weekly post's time zone.
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-noto-cjk fontconfig tzdata \
    && rm -rf /var/lib/apt/lists/* \
    && fc-cache -f

RUN groupadd --system --gid 10001 mahjong \
    && useradd --system --uid 10001 --gid mahjong --home-dir /app --no-create-home --shell /usr/sbin/nologin mahjong

WORKDIR /app
COPY pyproject.toml README.md ./
COPY scoring ./scoring
COPY bot ./bot
# Pure Python: no compiler in the image. The copied sources go after the install, so that the installed
# package is what runs from /app.
RUN pip install . \
    && rm -rf build scoring bot \
    && python -c "from bot.summary.chart import find_cjk_font; f = find_cjk_font(); assert f, 'no CJK font'; print(f)" \
    && chown -R mahjong:mahjong "$MPLCONFIGDIR" \
    && mkdir -p /data && chown mahjong:mahjong /data

# The SQLite database (DATABASE_URL defaults to sqlite:////data/mahjong.db) and the heartbeat live here.
VOLUME ["/data"]
USER mahjong:mahjong

# Webhook mode listens here (MODE=webhook, WEBHOOK_PORT); polling mode needs no port.
EXPOSE 8443

# Healthy = the bot's JobQueue touched /data/heartbeat in the last two minutes and the database answers and
# can be written.
HEALTHCHECK --interval=60s --timeout=15s --start-period=90s --retries=3 CMD ["python", "-m", "bot.health"]

CMD ["python", "-m", "bot"]
