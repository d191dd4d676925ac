# One image for the web processes and the Celery workers (compose.yaml).
FROM python:3.11-slim
ENV PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app
COPY requirements.txt .
RUN pip install -r requirements.txt
COPY . .
# Static files are collected into the image; WhiteNoise serves them.
RUN SECRET_KEY=collectstatic-only python manage.py collectstatic --noinput --verbosity 0
# The AI's kernels compiled into the image (numba's cache), not on the first move.
RUN python -m mcts warm
EXPOSE 8000
# The flags are the Makefile's UVICORN_FLAGS (the guarded HTTP protocol: 408
# for a slow request, the head's cap), with two workers.
CMD ["uvicorn", "webgame.asgi:application", "--host", "0.0.0.0", "--port", "8000", "--workers", "2", \
     "--http", "webgame.serving:GuardedHttpProtocol", "--no-proxy-headers", "--timeout-keep-alive", "5", \
     "--ws-max-size", "65536", "--ws-per-message-deflate", "false", "--ws-ping-interval", "20", \
     "--ws-ping-timeout", "20", "--timeout-graceful-shutdown", "15", "--lifespan", "on"]
