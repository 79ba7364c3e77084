# nginx for deploy/compose.yaml: Debian's nginx, the web front end (web/)
# and the configuration template, rendered at start from the environment
# (deploy/render-nginx.sh) so that its limits follow the replicas'
# PUZZLED_* settings.  Runs as www-data on port 8080.  Build context: the
# repository root.
FROM debian:bookworm-slim AS files
COPY . /src
# web/ may not exist yet (issue 25): an empty root then.
RUN mkdir -p /src/web

FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends nginx \
 && apt-get clean && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin \
 && rm -f /etc/nginx/sites-enabled/default \
 && mkdir -p /run/puzzled-nginx && chown www-data:www-data /run/puzzled-nginx
COPY --from=files /src/deploy/nginx.conf.in /src/deploy/render-nginx.sh /etc/puzzled-nginx/
COPY --from=files /src/web /srv/puzzled/web
USER www-data
ENV NGINX_PID=/run/puzzled-nginx/nginx.pid \
    NGINX_TEMP_DIR=/run/puzzled-nginx \
    NGINX_ERROR_LOG=stderr \
    NGINX_ACCESS_LOG=/dev/stdout \
    NGINX_WEB_ROOT=/srv/puzzled/web
EXPOSE 8080
STOPSIGNAL SIGQUIT
CMD ["/bin/sh", "-c", "sh /etc/puzzled-nginx/render-nginx.sh /etc/puzzled-nginx/nginx.conf.in > /run/puzzled-nginx/nginx.conf && exec nginx -e stderr -c /run/puzzled-nginx/nginx.conf -g 'daemon off;'"]
