#!/bin/bash
# Starts a private nginx (non-daemon, temp dir) on 127.0.0.1:PORT serving a small static file.
# Usage: bench/nginx.sh DIR PORT [WORKERS]   -> prints the nginx pid; stop it with `kill PID`.
# WORKERS: nginx's worker processes (default 1).
set -eu
dir=$1
port=$2
workers=${3:-1}
mkdir -p "$dir/www" "$dir/tmp"
printf 'hello from nginx\n' > "$dir/www/index.html"
chmod -R a+rX "$dir"
cat > "$dir/nginx.conf" <<CONF
worker_processes $workers;
daemon off;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $dir/tmp;
  proxy_temp_path $dir/tmp;
  fastcgi_temp_path $dir/tmp;
  uwsgi_temp_path $dir/tmp;
  scgi_temp_path $dir/tmp;
  keepalive_requests 1000000;
  server {
    listen 127.0.0.1:$port;
    listen [::1]:$port;
    root $dir/www;
    location /chunked { chunked_transfer_encoding on; return 200 "chunked-ish\n"; }
  }
}
CONF
nginx -c "$dir/nginx.conf" -p "$dir" >/dev/null 2>&1 &
pid=$!
i=0
while [ $i -lt 50 ]; do
  if (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null; then break; fi
  sleep 0.05; i=$((i+1))
done
echo $pid
