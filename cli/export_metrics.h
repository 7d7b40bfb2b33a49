/* `export` into monitoring systems: InfluxDB line protocol in the schema of JMeter's InfluxDB
 * backend listener (so JMeter's Grafana dashboards show any run), and a run's summary as
 * OpenMetrics text for a Prometheus Pushgateway. Field by field: docs/metrics.md. */
#ifndef PR_CLI_EXPORT_METRICS_H
#define PR_CLI_EXPORT_METRICS_H
#include <stdint.h>
#include <stdio.h>
#include "model/buf.h"
#include "store/store.h"

#define PR_INFLUX_MAX_PCTS 8

typedef struct pr_influx_opts {
    const char *measurement; /* default "jmeter", as the listener's "measurement" */
    const char *application; /* the "application" tag; default: the run's name */
    int64_t interval_ns; /* one point per interval, default 5 s (backend_influxdb.send_interval) */
    double pcts[PR_INFLUX_MAX_PCTS]; /* default 90, 95, 99 (the listener's "99;95;90") */
    int npcts;
} pr_influx_opts;

void pr_influx_opts_init(pr_influx_opts *o);
/* Parses "90,95,99" (or JMeter's "99;95;90") into o->pcts; 0 or -1. */
int pr_influx_parse_pcts(pr_influx_opts *o, const char *list);

/* Writes run `id` as line protocol to out. 0 or a negative error (err filled). */
int pr_export_influx(pr_store *st, int64_t id, const pr_influx_opts *o, pr_buf *out, pr_error *err);
/* Writes the run's summary (report model) as OpenMetrics gauges and a latency summary. */
int pr_export_openmetrics(pr_store *st, int64_t id, pr_buf *out, pr_error *err);

#endif
