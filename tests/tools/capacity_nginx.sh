#!/bin/sh
# Starts a private nginx on 127.0.0.1 serving paths of known capacity, for measuring fixtures:
#   /            a 3-byte page (200), as fast as nginx goes
#   /missing     404 at once (no such file)
#   /cap196/     200, limit_req 196 r/s, burst 500 queued (delayed), 503 beyond the burst
#   /cap117/     200, limit_req 117 r/s, burst 20000 queued (delayed): nothing rejected
# usage: capacity_nginx.sh start DIR   prints the port; the server runs until
#        capacity_nginx.sh stop DIR    (kills the nginx master recorded in DIR/nginx.pid)
set -eu
cmd=$1
dir=$2
case "$cmd" in
start)
  mkdir -p "$dir/html/cap196" "$dir/html/cap117" "$dir/tmp"
  chmod 755 "$dir" "$dir/html" # read by the workers (nobody when started as root)
  printf 'ok\n' >"$dir/html/index.html"
  printf 'ok\n' >"$dir/html/cap196/index.html"
  printf 'ok\n' >"$dir/html/cap117/index.html"
  port=$(awk 'BEGIN { srand(); print 20000 + int(rand() * 40000) }')
  cat >"$dir/nginx.conf" <<CONF
worker_processes 1;
worker_rlimit_nofile 65536;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 30000; }
http {
  access_log off;
  client_body_temp_path $dir/tmp/body;
  proxy_temp_path $dir/tmp/proxy;
  fastcgi_temp_path $dir/tmp/fastcgi;
  uwsgi_temp_path $dir/tmp/uwsgi;
  scgi_temp_path $dir/tmp/scgi;
  limit_req_zone \$server_name zone=c196:1m rate=196r/s;
  limit_req_zone \$server_name zone=c117:1m rate=117r/s;
  keepalive_requests 1000000;
  server {
    listen 127.0.0.1:$port;
    server_name cap;
    root $dir/html;
    location /cap196/ { limit_req zone=c196 burst=500; }
    location /cap117/ { limit_req zone=c117 burst=20000; }
  }
}
CONF
  nginx -c "$dir/nginx.conf" -p "$dir"
  echo "$port" >"$dir/port"
  echo "$port"
  ;;
stop)
  [ -f "$dir/nginx.pid" ] && kill "$(cat "$dir/nginx.pid")"
  ;;
*)
  echo "usage: $0 start|stop DIR" >&2
  exit 2
  ;;
esac
