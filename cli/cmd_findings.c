/* `perfreport findings`: the findings rules' verdicts on runs, as text or JSON. */
#include "analysis/findings.h"
#include "analysis/report.h"
#include "cli/cli.h"
#include "cli/common.h"
#include "model/l10n.h"
#include "model/text.h"
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_SKIP_WARMUP = 256 };

/* "info", "warning" or "critical" into *sev. */
static int parse_severity(const char *arg, pr_severity *sev)
{
    static const struct {
        const char *name;
        pr_severity sev;
    } names[] = {{"info", PR_SEV_INFO}, {"warning", PR_SEV_WARNING}, {"critical", PR_SEV_CRITICAL}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(arg, names[i].name)) {
            *sev = names[i].sev;
            return 0;
        }
    pr_cli_errorf("--min-severity expects info, warning or critical, got '%s'", arg);
    return PR_EXIT_USAGE;
}

/* One entry per run: its id, name and the rules' findings. */
static json_t *run_findings(json_t *doc, const pr_findings_opts *fo)
{
    json_t *out = json_array();
    pr_findings_opts o = *fo;
    o.runs = json_object_get(doc, "runs"); /* series rules read the other runs given */
    size_t i;
    json_t *r;
    json_array_foreach (o.runs, i, r) {
        json_t *e = json_object();
        json_object_set(e, "id", json_object_get(r, "id"));
        json_object_set(e, "name", json_object_get(r, "name"));
        json_object_set_new(e, "findings", pr_findings_run(r, &o));
        json_array_append_new(out, e);
    }
    return out;
}

static int print_text(json_t *out)
{
    int rc = 0;
    pr_text_visible_json(out, 0); /* names and quoted evidence come from the files */
    size_t i;
    json_t *r;
    json_array_foreach (out, i, r) {
        json_t *f = json_object_get(r, "findings");
        size_t nf = json_array_size(f);
        printf(n_("%srun %lld: %s  (%zu finding)\n", "%srun %lld: %s  (%zu findings)\n", nf),
               i ? "\n" : "", (long long)json_integer_value(json_object_get(r, "id")),
               json_string_value(json_object_get(r, "name")), nf);
        if (pr_findings_print(stdout, f) < 0)
            rc = PR_EXIT_ERROR;
    }
    return rc;
}

static int run(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"store", required_argument, NULL, 'S'},
        {"json", no_argument, NULL, 'j'},
        {"only", required_argument, NULL, 'o'},
        {"min-severity", required_argument, NULL, 's'},
        {"merge", no_argument, NULL, 'm'},
        {"skip-warmup", required_argument, NULL, OPT_SKIP_WARMUP},
        {NULL, 0, NULL, 0}};
    const char *store = NULL;
    int json = 0, merge = 0, c, rc = 0;
    pr_findings_opts fo;
    pr_findings_opts_init(&fo);
    pr_report_opts o;
    pr_report_opts_init(&o);
    o.findings = 0;       /* this command runs the rules itself, with its own options */
    char window[96] = ""; /* --skip-warmup as typed, for the warning on empty windows */
    optind = 1;
    while (rc == 0 && (c = getopt_long(argc, argv, "jm", longopts, NULL)) != -1) {
        switch (c) {
        case 'S': store = optarg; break;
        case 'j': json = 1; break;
        case 'o': fo.only = optarg; break;
        case 'm': merge = 1; break;
        case 's': rc = parse_severity(optarg, &fo.min_severity); break;
        case OPT_SKIP_WARMUP:
            pr_cli_window_add(window, sizeof window, "--skip-warmup", optarg);
            rc = pr_cli_parse_duration("--skip-warmup", optarg, 1000000000, &o.from_ns);
            break;
        default: return PR_EXIT_USAGE;
        }
    }
    json_t *doc = NULL;
    if (rc == 0)
        rc = pr_cli_report(store, argv + optind, argc - optind, merge, &o, &doc);
    if (rc == 0) {
        pr_cli_warn_windows(doc, window);
        json_t *out = run_findings(doc, &fo);
        rc = json ? pr_cli_print_json(out, "-") : print_text(out);
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
