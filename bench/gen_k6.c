/* Generator of large k6 `--out json` files for the ingest benchmark (and tests): N HTTP
 * requests in k6 v0.41+ layout (Metric line before a metric's first point, sorted tags,
 * nine points per request, a check, iteration points and a vus gauge each second), with a
 * deterministic mix of statuses (4% 404, 1% 500 with expected_response false and
 * error_code 1000 + status) and latencies. Usage: gen_k6 N OUT [VUS] [csv]: with "csv",
 * the same points as k6's --out csv (19 columns, unix seconds). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static const char *const metrics[][3] = {
    {"http_reqs", "counter", "default"},         {"http_req_duration", "trend", "time"},
    {"http_req_blocked", "trend", "time"},       {"http_req_connecting", "trend", "time"},
    {"http_req_tls_handshaking", "trend", "time"}, {"http_req_sending", "trend", "time"},
    {"http_req_waiting", "trend", "time"},       {"http_req_receiving", "trend", "time"},
    {"http_req_failed", "rate", "default"},      {"checks", "rate", "default"},
    {"data_sent", "counter", "data"},            {"data_received", "counter", "data"},
    {"iteration_duration", "trend", "time"},     {"iterations", "counter", "default"},
    {"vus", "gauge", "default"},
};
static int declared[sizeof metrics / sizeof metrics[0]];
static int csv;

/* One CSV row: metric, unix seconds, value as %f, the 16 tag columns (from a JSON tag text we
 * built ourselves: we know which fields it has), extra_tags, metadata. */
static void csv_row(FILE *f, int m, long long sec, const char *value, const char *tags)
{
    static const char *const cols[] = {"check", "error", "error_code", "expected_response",
                                       "group", "method", "name", "proto", "scenario", "service",
                                       "status", "subproto", "tls_version", "url"};
    fprintf(f, "%s,%lld,%f", metrics[m][0], sec, atof(value));
    for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++) {
        char key[40];
        snprintf(key, sizeof key, "\"%s\":\"", cols[i]);
        const char *p = strstr(tags, key);
        fputc(',', f);
        if (p) {
            p += strlen(key);
            const char *e = strchr(p, '"');
            fwrite(p, 1, (size_t)(e - p), f);
        }
    }
    fputs(",,\n", f);
}

static void point(FILE *f, int m, const char *time, const char *value, const char *tags)
{
    if (csv) {
        struct tm tm = {0};
        int us = 0;
        sscanf(time, "%d-%d-%dT%d:%d:%d.%d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
               &tm.tm_min, &tm.tm_sec, &us);
        tm.tm_year -= 1900;
        tm.tm_mon -= 1;
        csv_row(f, m, (long long)timegm(&tm), value, tags);
        return;
    }
    if (!declared[m]) {
        declared[m] = 1;
        fprintf(f, "{\"type\":\"Metric\",\"data\":{\"name\":\"%s\",\"type\":\"%s\",\"contains\":\"%s\","
                   "\"thresholds\":[],\"submetrics\":null},\"metric\":\"%s\"}\n",
                metrics[m][0], metrics[m][1], metrics[m][2], metrics[m][0]);
    }
    fprintf(f, "{\"metric\":\"%s\",\"type\":\"Point\",\"data\":{\"time\":\"%s\",\"value\":%s,"
               "\"tags\":%s}}\n", metrics[m][0], time, value, tags);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: gen_k6 N OUT [VUS]\n");
        return 2;
    }
    long long n = atoll(argv[1]);
    int vus = argc > 3 ? atoi(argv[3]) : 50;
    csv = argc > 4 && !strcmp(argv[4], "csv");
    FILE *f = strcmp(argv[2], "-") ? fopen(argv[2], "w") : stdout;
    if (!f) {
        perror(argv[2]);
        return 1;
    }
    static char buf[1 << 20];
    setvbuf(f, buf, _IOFBF, sizeof buf);
    if (csv)
        fputs("metric_name,timestamp,metric_value,check,error,error_code,expected_response,group,"
              "method,name,proto,scenario,service,status,subproto,tls_version,url,extra_tags,"
              "metadata\n", f);
    int64_t t_us = 1764590400LL * 1000000; /* 2025-12-01T12:00:00Z */
    int64_t last_vus_s = -1;
    for (long long i = 0; i < n; i++) {
        t_us += 1 + (int64_t)(next() % 400);
        if (t_us / 1000000 != last_vus_s) {
            last_vus_s = t_us / 1000000;
            char t[48], v[16];
            snprintf(t, sizeof t, "2025-12-01T%02d:%02d:%02dZ", (int)(last_vus_s / 3600 % 24),
                     (int)(last_vus_s / 60 % 60), (int)(last_vus_s % 60));
            snprintf(v, sizeof v, "%d", vus);
            point(f, 14, t, v, "{}");
        }
        uint64_t r = next();
        int status = r % 100 < 4 ? 404 : r % 100 < 5 ? 500 : 200;
        int page = (int)((r >> 8) % 20);
        char time[64], tags[512], v[9][32];
        int64_t s = t_us / 1000000, us = t_us % 1000000;
        snprintf(time, sizeof time, "2025-12-01T%02d:%02d:%02d.%06lldZ", (int)(s / 3600 % 24),
                 (int)(s / 60 % 60), (int)(s % 60), (long long)us);
        int bad = status >= 400;
        snprintf(tags, sizeof tags,
                 "{%s\"expected_response\":\"%s\",\"group\":\"\",\"method\":\"GET\","
                 "\"name\":\"http://127.0.0.1:8080/page/%d\",\"proto\":\"HTTP/1.1\","
                 "\"scenario\":\"default\",\"status\":\"%d\",\"url\":\"http://127.0.0.1:8080/page/%d\"}",
                 bad ? (status == 404 ? "\"error_code\":\"1404\"," : "\"error_code\":\"1500\",") : "",
                 bad ? "false" : "true", page, status, page);
        double wait = 0.2 + (double)(next() % 20000) / 1000.0, send = (double)(next() % 100) / 1000.0,
               recv = (double)(next() % 500) / 1000.0;
        double conn = i < vus ? 0.3 : 0;
        snprintf(v[0], 32, "1");
        snprintf(v[1], 32, "%.6g", send + wait + recv);
        snprintf(v[2], 32, "%.6g", conn + 0.001);
        snprintf(v[3], 32, "%.6g", conn);
        snprintf(v[4], 32, "0");
        snprintf(v[5], 32, "%.6g", send);
        snprintf(v[6], 32, "%.6g", wait);
        snprintf(v[7], 32, "%.6g", recv);
        snprintf(v[8], 32, "%d", bad);
        for (int m = 0; m < 9; m++)
            point(f, m, time, v[m], tags);
        point(f, 9, time, bad ? "0" : "1",
              "{\"check\":\"status is 200\",\"group\":\"\",\"scenario\":\"default\"}");
        point(f, 10, time, "96", "{\"group\":\"\",\"scenario\":\"default\"}");
        point(f, 11, time, "512", "{\"group\":\"\",\"scenario\":\"default\"}");
        snprintf(v[0], 32, "%.6g", send + wait + recv + 0.05);
        point(f, 12, time, v[0], "{\"group\":\"\",\"scenario\":\"default\"}");
        point(f, 13, time, "1", "{\"group\":\"\",\"scenario\":\"default\"}");
    }
    if (fclose(f) != 0) {
        perror(argv[2]);
        return 1;
    }
    return 0;
}
