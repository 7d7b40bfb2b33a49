/* Fuzz target: the findings rules on an arbitrary JSON run model, and the change-point and USL
 * fits on the input read as a series of numbers. Nothing may crash or read out of bounds. */
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/capacity.h"
#include "analysis/changepoint.h"
#include "analysis/findings.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 20)
        return 0;
    json_error_t e;
    json_t *run = json_loadb((const char *)data, size, 0, &e);
    if (run) {
        json_t *f = pr_findings_run(run, NULL);
        json_decref(f);
        json_decref(run);
    }
    /* the bytes as a short series of values */
    size_t n = size / 2 > 48 ? 48 : size / 2;
    double x[48], load[48];
    for (size_t i = 0; i < n; i++) {
        x[i] = (double)(data[2 * i] | data[2 * i + 1] << 8);
        load[i] = (double)(i + 1);
    }
    pr_cp_opts o;
    pr_cp_opts_init(&o);
    o.permutations = 19;
    o.alpha = 0.5;
    o.min_size = 2;
    pr_changepoint *cp;
    pr_changepoints(x, n, &o, &cp);
    free(cp);
    pr_usl u;
    pr_usl_fit(load, x, n, &u);
    return 0;
}
