#!/bin/sh
# Records the cache study in this folder (see README.md): nginx in front of a backend that
# takes DELAY ms per request, once proxying every request (cache=off) and once with
# proxy_cache (cache=on), each attacked by `perfreport attack` at 50, 100 and 200 req/s.
# Run from the repository root with ./perfreport and build/tests/httpd built:
#   sh tests/data/study-cache/make.sh
set -eu
root=$(pwd)
dir="$root/tests/data/study-cache"
DELAY=${DELAY:-10}
SECS=${SECS:-4}
tmp=$(mktemp -d)
cleanup() {
  [ -f "$tmp/nginx.pid" ] && kill "$(cat "$tmp/nginx.pid")" 2>/dev/null || true
  [ -n "${backend_pid:-}" ] && kill "$backend_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
# the backend: the scripted server answering 200 "hello" after DELAY ms
"$root/build/tests/httpd" slow "$DELAY" > "$tmp/backend.port" &
backend_pid=$!
i=0
while [ ! -s "$tmp/backend.port" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
backend=$(cat "$tmp/backend.port")
# one free high port for nginx (random, as the machine is shared), served in turn by a proxy
# without cache and one with proxy_cache: the same URLs, so the runs' labels match
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
conf() { # conf off|on
  directives=""
  [ "$1" = on ] && directives="proxy_cache study; proxy_cache_valid 200 10m; proxy_cache_lock on;"
  rm -rf "$tmp/cache" && mkdir -p "$tmp/cache"
  cat > "$tmp/nginx.conf" <<CONF
worker_processes 1;
daemon off;
master_process off;
pid $tmp/nginx.pid;
error_log $tmp/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $tmp/body;
  proxy_temp_path $tmp/proxy;
  fastcgi_temp_path $tmp/fastcgi;
  uwsgi_temp_path $tmp/uwsgi;
  scgi_temp_path $tmp/scgi;
  proxy_cache_path $tmp/cache keys_zone=study:1m;
  upstream backend { server 127.0.0.1:$backend; keepalive 32; }
  server {
    listen 127.0.0.1:$port;
    location / { proxy_pass http://backend; proxy_http_version 1.1; proxy_set_header Connection ""; $directives }
  }
}
CONF
}
for cache in off on; do
  conf $cache
  nginx -c "$tmp/nginx.conf" -p "$tmp" &
  nginx_pid=$!
  i=0
  while ! ./perfreport attack -n 1 -q "http://127.0.0.1:$port/catalog" -o /dev/null 2>/dev/null && [ $i -lt 100 ]; do
    sleep 0.05; i=$((i + 1))
  done
  for rate in 50 100 200; do
    ./perfreport attack -r "$rate/s" --duration "${SECS}s" -q --name "cache-$cache-$rate" \
      --tag cache=$cache --tag rate=$rate "http://127.0.0.1:$port/catalog" \
      "http://127.0.0.1:$port/search" -o "$dir/cache-$cache-$rate.bin"
  done
  kill "$nginx_pid"
  wait "$nginx_pid" 2>/dev/null || true
  rm -f "$tmp/nginx.pid"
done
