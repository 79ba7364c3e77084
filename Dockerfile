# puzzled -- two stages on debian:bookworm-slim.
#
# build:   installs exactly what `make deps-build` installs (the Makefile's
#          DEB_BUILD_PKGS: compiler and -dev libraries, none of the test
#          tools), then `make`.  The Makefile is copied alone first so that
#          the package layer is cached until the package list changes.
# runtime: only the shared libraries build/puzzled links against
#          (tools/check_dockerfile.sh checks this list against the binary),
#          the web front end (web/, empty until it exists), a non-root user,
#          0.0.0.0:8080, and a HEALTHCHECK that uses the binary's own probe,
#          so no curl is needed in the image.
#
# `make test-container` builds and runs this image (tests/container/).
FROM debian:bookworm-slim AS build
WORKDIR /src
COPY Makefile ./
RUN apt-get update \
 && apt-get install -y --no-install-recommends make \
 && make deps-build \
 && apt-get clean && rm -rf /var/lib/apt/lists/*
COPY . .
RUN make clean && make -j"$(nproc)" && mkdir -p web

FROM debian:bookworm-slim AS runtime
RUN apt-get update \
 && apt-get install -y --no-install-recommends libmicrohttpd12 libjansson4 libuv1 libhiredis0.14 \
 && apt-get clean && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin \
 && groupadd --gid 10001 puzzled \
 && useradd --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent \
            --shell /usr/sbin/nologin puzzled
COPY --from=build /src/build/puzzled /usr/local/bin/puzzled
COPY --from=build /src/web /usr/local/share/puzzled/web
# Numeric, so that Kubernetes' runAsNonRoot can verify it (deploy/k8s/).
USER 10001:10001
# PUZZLED_WEB_ROOT matters only if the server reads web/ from disk (--web-root);
# a binary with the files compiled in ignores it.
ENV PUZZLED_BIND=0.0.0.0 \
    PUZZLED_PORT=8080 \
    PUZZLED_WEB_ROOT=/usr/local/share/puzzled/web
EXPOSE 8080
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=2s --retries=3 \
  CMD ["/usr/local/bin/puzzled", "--healthcheck"]
ENTRYPOINT ["/usr/local/bin/puzzled"]
