# The k6 readers' errors (issue 34, item 9): file:line:col, what was expected, and the
# offending value quoted visibly (an ESC as \x1b) — what is actually wrong: a number out of
# range is not "negative". Nothing is stored by a failed ingest.
ESC=$(printf '\033')
pt() { printf '{"type":"Point","data":{"time":"%s","value":%s,"tags":{"name":"http://h/","status":"200"}},"metric":"%s"}\n' "$1" "$2" "$3"; }
ok='2022-01-05T12:46:23+01:00'
# --out json: the time
pt "2022-01-05T12:46:23$ESC[2J+01:00" 1 http_reqs > esc_raw.ndjson
pr ingest esc_raw.ndjson
pt '2022-01-05T12:46:23\u001b[2J+01:00' 1 http_reqs > esc_json.ndjson
pr ingest esc_json.ndjson
pt '1022-01-05T12:46:23+01:00' 1 http_reqs > year.ndjson
pr ingest year.ndjson
printf '{"type":"Point","data":{"time":5,"value":1,"tags":{}},"metric":"http_reqs"}\n' > time_num.ndjson
pr ingest time_num.ndjson
printf '{"type":"Point","data":{"value":1,"tags":{}},"metric":"http_reqs"}\n' > no_time.ndjson
pr ingest no_time.ndjson
# --out json: the value
pt "$ok" 1e308 http_req_duration > big.ndjson
pr ingest big.ndjson
pt "$ok" -5 http_req_duration > negative.ndjson
pr ingest negative.ndjson
pt "$ok" 1e400 http_reqs > huge_count.ndjson
pr ingest huge_count.ndjson
pt "$ok" '"12"' http_req_duration > quoted.ndjson
pr ingest quoted.ndjson
printf '{"type":"Point","data":{"time":"%s","tags":{}},"metric":"http_reqs"}\n' "$ok" > no_value.ndjson
pr ingest no_value.ndjson
pt "$ok" 1e999 vus > vus.ndjson
pr ingest vus.ndjson
# --out json: a tag that is not a string
printf '{"type":"Point","data":{"time":"%s","value":1,"tags":{"check":5}},"metric":"checks"}\n' "$ok" > tag.ndjson
pr ingest tag.ndjson
# a good point first, then the bad one on line 2: still nothing stored
{ pt "$ok" 1 http_reqs; pt "$ok" 1e308 http_req_duration; } > second.ndjson
pr ingest second.ndjson
# --out csv
H='metric_name,timestamp,metric_value,check,error,error_code,expected_response,group,method,name,proto,scenario,service,status,subproto,tls_version,url,extra_tags'
row() { printf '%s,%s,%s,,,,true,,GET,u,HTTP/1.1,default,,200,,,u,\n' "$@"; }
{ echo "$H"; row http_req_duration 1641298536 1e308; } > big.csv
pr ingest big.csv
{ echo "$H"; row http_req_duration '"1641298536"' '"-5"'; } > negative.csv
pr ingest negative.csv
{ echo "$H"; row http_reqs "16412${ESC}98536" 1; } > esc_time.csv
pr ingest esc_time.csv
{ echo "$H"; row http_reqs 1641298536 "1${ESC}[2J"; } > esc_value.csv
pr ingest esc_value.csv
{ echo "$H"; row vus 1641298536 abc; } > vus.csv
pr ingest vus.csv
no_run_left
