# Redis for deploy/compose.yaml (cluster mode, issue 28): Debian's
# redis-server, so that the stack needs no registry image beyond
# debian:bookworm-slim.  Append-only file in /data (a volume), so a restart
# of Redis keeps the jobs; no RDB snapshots.  Listens on 6379 for the
# compose network only (no port is published).
FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends redis-server \
 && apt-get clean && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin \
 && mkdir -p /data && chown redis:redis /data
USER redis
EXPOSE 6379
CMD ["redis-server", "--bind", "0.0.0.0", "--protected-mode", "no", "--dir", "/data", \
     "--save", "", "--appendonly", "yes", "--maxmemory-policy", "noeviction"]
