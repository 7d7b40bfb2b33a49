/* `perfreport findings`: the findings rules' verdicts on runs, as text or JSON. */
#include "analysis/findings.h"
#include "analysis/report.h"
#include "cli/cli.h"
#include "cli/common.h"
#include "model/lex.h"
#include "model/text.h"
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static int run(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"store", required_argument, NULL, 'S'},  {"json", no_argument, NULL, 'j'},
        {"only", required_argument, NULL, 'o'},   {"min-severity", required_argument, NULL, 's'},
        {"merge", no_argument, NULL, 'm'},        {"skip-warmup", required_argument, NULL, 1},
        {NULL, 0, NULL, 0}};
    const char *store = NULL;
    int json = 0, merge = 0, c;
    pr_findings_opts fo;
    pr_findings_opts_init(&fo);
    pr_report_opts o;
    pr_report_opts_init(&o);
    o.findings = 0; /* this command runs the rules itself, with its own options */
    char window[96] = ""; /* --skip-warmup as typed, for the warning on empty windows */
    optind = 1;
    while ((c = getopt_long(argc, argv, "jm", longopts, NULL)) != -1) {
        switch (c) {
        case 'S': store = optarg; break;
        case 'j': json = 1; break;
        case 'o': fo.only = optarg; break;
        case 'm': merge = 1; break;
        case 's':
            if (!strcmp(optarg, "info"))
                fo.min_severity = PR_SEV_INFO;
            else if (!strcmp(optarg, "warning"))
                fo.min_severity = PR_SEV_WARNING;
            else if (!strcmp(optarg, "critical"))
                fo.min_severity = PR_SEV_CRITICAL;
            else {
                pr_cli_errorf("--min-severity expects info, warning or critical, got '%s'", optarg);
                return PR_EXIT_USAGE;
            }
            break;
        case 1:
            if (pr_lex_duration(optarg, strlen(optarg), 1000000000, &o.from_ns) < 0) {
                pr_cli_errorf("--skip-warmup expects a duration like 10s, got '%s'", optarg);
                return PR_EXIT_USAGE;
            }
            snprintf(window, sizeof window, "--skip-warmup %s", optarg);
            break;
        default: return PR_EXIT_USAGE;
        }
    }
    json_t *doc = NULL;
    int rc = pr_cli_report(store, argv + optind, argc - optind, merge, &o, &doc);
    if (rc == 0)
        pr_cli_warn_windows(doc, window);
    if (rc == 0) {
        json_t *out = json_array();
        size_t i;
        json_t *r;
        json_array_foreach(json_object_get(doc, "runs"), i, r) {
            json_t *e = json_object();
            json_object_set(e, "id", json_object_get(r, "id"));
            json_object_set(e, "name", json_object_get(r, "name"));
            json_object_set_new(e, "findings", pr_findings_run(r, &fo));
            json_array_append_new(out, e);
        }
        if (json) {
            char *text = json_dumps(out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
            size_t len = strlen(text);
            text[len] = '\n';
            if (pr_cli_write_file("-", text, len + 1) < 0)
                rc = PR_EXIT_ERROR;
            free(text);
        } else {
            pr_text_visible_json(out, 0); /* names and quoted evidence come from the files */
            json_array_foreach(out, i, r) {
                json_t *f = json_object_get(r, "findings");
                printf("%srun %lld: %s  (%zu finding%s)\n", i ? "\n" : "",
                       (long long)json_integer_value(json_object_get(r, "id")),
                       json_string_value(json_object_get(r, "name")), json_array_size(f),
                       json_array_size(f) == 1 ? "" : "s");
                if (pr_findings_print(stdout, f) < 0)
                    rc = PR_EXIT_ERROR;
            }
            if (fflush(stdout) != 0)
                rc = PR_EXIT_ERROR;
        }
        json_decref(out);
    }
    json_decref(doc);
    return rc;
}

const pr_command pr_cmd_findings = {
    "findings", "findings [OPTIONS] [RUN…]", "bottleneck hints: what limited each run and why",
    "Runs the findings rules (docs/findings.md) on each RUN (an id, a name or 'last'; default:\n"
    "every run) and prints what they found: saturation, timeouts, error onset and classes,\n"
    "tail and bimodal latency, warm-up, degradation, stalls, dominant labels, connection or\n"
    "download cost, generator bottleneck and coordinated-omission risk, each with its evidence\n"
    "and a recommendation.\n\n"
    "options:\n"
    "      --json               the findings as JSON\n"
    "      --only IDS           run only these rules (comma-separated ids)\n"
    "      --min-severity S     info (default), warning or critical\n"
    "  -m, --merge              analyse all the runs as one\n"
    "      --skip-warmup D      leave the first D of each run out\n"
    "      --store PATH         store file\n\n"
    "example:\n  perfreport findings --min-severity warning last\n",
    run};
