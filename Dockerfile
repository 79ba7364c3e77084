# puzzled -- two stages on debian:bookworm-slim.
#
# build:   installs exactly what `make deps` installs (it runs `make deps`, so
#          the package list lives in one place, the Makefile), then `make`.
# runtime: only the shared libraries build/puzzled links against
#          (tests/check_dockerfile.sh checks this list against the binary),
#          a non-root user, 0.0.0.0:8080, and a HEALTHCHECK that uses the
#          binary's own probe, so no curl is needed in the image.
FROM debian:bookworm-slim AS build
WORKDIR /src
COPY Makefile ./
RUN apt-get update \
 && apt-get install -y --no-install-recommends make \
 && make deps \
 && rm -rf /var/lib/apt/lists/*
COPY . .
RUN make clean && make -j"$(nproc)"

FROM debian:bookworm-slim AS runtime
RUN apt-get update \
 && apt-get install -y --no-install-recommends libmicrohttpd12 libjansson4 libuv1 \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --no-create-home --shell /usr/sbin/nologin puzzled
COPY --from=build /src/build/puzzled /usr/local/bin/puzzled
USER puzzled
ENV PUZZLED_BIND=0.0.0.0 \
    PUZZLED_PORT=8080
EXPOSE 8080
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=2s --retries=3 \
  CMD ["/usr/local/bin/puzzled", "--healthcheck"]
ENTRYPOINT ["/usr/local/bin/puzzled"]
