/* The reader's language (GNU gettext catalogs, found without an installed system locale) and
 * time zone (ISO 8601 dates with their offset). */
#include "model/l10n.h"
#include "model/lex.h"
#include <ctype.h>
#include <dirent.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef PR_LOCALEDIR
#define PR_LOCALEDIR "/usr/local/share/locale"
#endif
#ifndef PR_BUILD_DIR
#define PR_BUILD_DIR "build"
#endif

/* gettext's state is the process's: these mirror what was asked of it. */
static struct {
    char lang[32];  /* "" = English */
    char tag[32];   /* BCP 47 form of lang */
    char dir[4096]; /* where its catalog is */
    int tz_fixed;   /* 1: tz_fixed_min below; 0: the C library's local time (TZ) */
    int tz_fixed_min;
} l10n;

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static int has_catalog(const char *dir, const char *lang)
{
    char p[4400];
    if (snprintf(p, sizeof p, "%s/%s/LC_MESSAGES/%s.mo", dir, lang, PR_TEXTDOMAIN) >= (int)sizeof p)
        return 0;
    return is_file(p);
}

/* The folders that may hold catalogs, in the order they are searched. */
static size_t locale_dirs(char dirs[][4096], size_t max)
{
    size_t n = 0;
    const char *env = getenv("PERFREPORT_LOCALEDIR");
    if (env && *env && n < max)
        snprintf(dirs[n++], 4096, "%s", env);
    char exe[4096];
    ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (k > 0) {
        exe[k] = 0;
        char *slash = strrchr(exe, '/');
        if (slash)
            *slash = 0;
        /* ./perfreport beside build/, build-san/perfreport beside build-san/locale */
        if (PR_BUILD_DIR[0] == '/' && n < max)
            snprintf(dirs[n++], 4096, "%s/locale", PR_BUILD_DIR);
        else if (n < max && snprintf(dirs[n], 4096, "%s/%s/locale", exe, PR_BUILD_DIR) < 4096)
            n++;
        if (n < max && snprintf(dirs[n], 4096, "%s/locale", exe) < 4096)
            n++;
    }
    if (n < max)
        snprintf(dirs[n++], 4096, "%s", PR_LOCALEDIR);
    return n;
}

/* The catalogs built into the binary (tests/tools/embed.sh -t pr_builtin_catalogs: a .mo per
 * language, named by the language), so a binary copied elsewhere still speaks them. GNU
 * gettext reads catalogs from files only: the chosen one is written to a private folder
 * (mkdtemp, 0700) that is removed again once gettext has loaded it. */
struct pr_builtin_template {
    const char *name;
    const char *text;
    size_t len;
};
extern const struct pr_builtin_template pr_builtin_catalogs[];
static char embedded_dir[64]; /* the private folder while a built-in catalog loads, or "" */

static const struct pr_builtin_template *builtin_catalog(const char *lang, const char *base)
{
    size_t bl = strlen(base);
    for (size_t i = 0; pr_builtin_catalogs[i].name; i++)
        if (!strcmp(pr_builtin_catalogs[i].name, lang))
            return &pr_builtin_catalogs[i];
    for (size_t i = 0; pr_builtin_catalogs[i].name; i++) {
        const char *n = pr_builtin_catalogs[i].name;
        if (!strcmp(n, base) || (!strchr(lang, '_') && !strncmp(n, base, bl) && n[bl] == '_'))
            return &pr_builtin_catalogs[i];
    }
    return NULL;
}

static void embedded_cleanup(const char *name)
{
    if (!embedded_dir[0])
        return;
    char p[160];
    snprintf(p, sizeof p, "%s/%s/LC_MESSAGES/%s.mo", embedded_dir, name, PR_TEXTDOMAIN);
    unlink(p);
    snprintf(p, sizeof p, "%s/%s/LC_MESSAGES", embedded_dir, name);
    rmdir(p);
    snprintf(p, sizeof p, "%s/%s", embedded_dir, name);
    rmdir(p);
    rmdir(embedded_dir);
    embedded_dir[0] = 0;
}

/* Writes the built-in catalog c where gettext can read it; its folder goes to dir. */
static int embedded_materialize(const struct pr_builtin_template *c, char *dir)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(embedded_dir, sizeof embedded_dir, "%s/perfreport-l10n-XXXXXX",
             tmp && *tmp && strlen(tmp) < 30 ? tmp : "/tmp");
    if (!mkdtemp(embedded_dir)) {
        embedded_dir[0] = 0;
        return 0;
    }
    char p[160];
    snprintf(p, sizeof p, "%s/%s", embedded_dir, c->name);
    mkdir(p, 0700);
    snprintf(p, sizeof p, "%s/%s/LC_MESSAGES", embedded_dir, c->name);
    mkdir(p, 0700);
    snprintf(p, sizeof p, "%s/%s/LC_MESSAGES/%s.mo", embedded_dir, c->name, PR_TEXTDOMAIN);
    FILE *f = fopen(p, "wb");
    int ok = f && fwrite(c->text, 1, c->len, f) == c->len;
    if (f && fclose(f) != 0)
        ok = 0;
    if (!ok) {
        embedded_cleanup(c->name);
        return 0;
    }
    snprintf(dir, 4096, "%s", embedded_dir);
    return 1;
}

/* "zh_CN.UTF-8@x" → "zh_CN", "zh-CN" → "zh_CN"; 0 when what is left is no language name. */
static int normalize(const char *in, char *out, size_t size)
{
    size_t i = 0;
    for (; in[i] && in[i] != '.' && in[i] != '@' && i + 1 < size; i++)
        out[i] = in[i] == '-' ? '_' : in[i];
    out[i] = 0;
    if (i < 1)
        return 0;
    for (size_t j = 0; j < i; j++)
        if (!isalnum((unsigned char)out[j]) && out[j] != '_')
            return 0;
    return 1;
}

static int is_english(const char *lang)
{
    return !strcmp(lang, "C") || !strcmp(lang, "POSIX") || !strcmp(lang, "en") ||
           !strncmp(lang, "en_", 3);
}

/* Finds the catalog of lang ("zh_CN", else "zh", else for a bare "zh" the first "zh_*"):
 * writes its name and folder. */
static int find_catalog(const char *lang, char *name, size_t nsize, char *dir)
{
    char dirs[4][4096];
    size_t nd = locale_dirs(dirs, 4);
    char base[32];
    snprintf(base, sizeof base, "%s", lang);
    char *us = strchr(base, '_');
    if (us)
        *us = 0;
    for (size_t d = 0; d < nd; d++) {
        const char *cands[2] = {lang, base};
        for (size_t c = 0; c < 2; c++) {
            if (has_catalog(dirs[d], cands[c])) {
                snprintf(name, nsize, "%s", cands[c]);
                snprintf(dir, 4096, "%s", dirs[d]);
                return 1;
            }
        }
        DIR *dp = us ? NULL : opendir(dirs[d]);
        struct dirent *e;
        size_t bl = strlen(base);
        while (dp && (e = readdir(dp))) {
            size_t k = strlen(e->d_name);
            if (!strncmp(e->d_name, base, bl) && e->d_name[bl] == '_' && k < nsize &&
                has_catalog(dirs[d], e->d_name)) {
                memcpy(name, e->d_name, k + 1);
                snprintf(dir, 4096, "%s", dirs[d]);
                closedir(dp);
                return 1;
            }
        }
        if (dp)
            closedir(dp);
    }
    return 0;
}

/* The languages there are catalogs for, for an error message: "en, zh_CN". */
static void list_languages(char *out, size_t size)
{
    char dirs[4][4096];
    size_t nd = locale_dirs(dirs, 4), len = (size_t)snprintf(out, size, "en");
    for (size_t d = 0; d < nd; d++) {
        DIR *dp = opendir(dirs[d]);
        struct dirent *e;
        while (dp && (e = readdir(dp)))
            if (e->d_name[0] != '.' && has_catalog(dirs[d], e->d_name) && !strstr(out, e->d_name) &&
                len + strlen(e->d_name) + 3 < size)
                len += (size_t)snprintf(out + len, size - len, ", %s", e->d_name);
        if (dp)
            closedir(dp);
    }
    for (size_t i = 0; pr_builtin_catalogs[i].name; i++)
        if (!strstr(out, pr_builtin_catalogs[i].name) &&
            len + strlen(pr_builtin_catalogs[i].name) + 3 < size)
            len += (size_t)snprintf(out + len, size - len, ", %s", pr_builtin_catalogs[i].name);
}

static void use_english(void)
{
    l10n.lang[0] = 0;
    strcpy(l10n.tag, "en");
    l10n.dir[0] = 0;
    setlocale(LC_MESSAGES, "C"); /* gettext translates nothing in the C locale */
}

/* Points gettext at the catalog: LANGUAGE names it, and LC_MESSAGES must not be "C" (where
 * gettext ignores LANGUAGE): C.UTF-8 is built into the C library, no locale to install. */
static int use_catalog(const char *name, const char *dir)
{
    setenv("LANGUAGE", name, 1);
    if (!setlocale(LC_MESSAGES, "C.UTF-8") && !setlocale(LC_MESSAGES, "C.utf8"))
        setlocale(LC_MESSAGES, "");
    bindtextdomain(PR_TEXTDOMAIN, dir);
    bind_textdomain_codeset(PR_TEXTDOMAIN, "UTF-8");
    /* the catalog's header is the translation of "" (reserved by gettext, hence no literal
     * here for xgettext to take as a message): empty when the catalog did not load */
    static const char empty[1];
    const char *header = dgettext(PR_TEXTDOMAIN, empty);
    if (!header || !*header) {
        use_english();
        return 0;
    }
    snprintf(l10n.lang, sizeof l10n.lang, "%s", name);
    snprintf(l10n.dir, sizeof l10n.dir, "%s", dir);
    snprintf(l10n.tag, sizeof l10n.tag, "%s", name);
    for (char *c = l10n.tag; *c; c++)
        if (*c == '_')
            *c = '-';
    return 1;
}

/* The environment's wish as gettext reads it: LANGUAGE (a list) unless the locale is C. */
static const char *env_wish(void)
{
    static const char *const vars[] = {"LC_ALL", "LC_MESSAGES", "LANG"};
    const char *loc = NULL;
    for (size_t i = 0; i < 3 && !loc; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v)
            loc = v;
    }
    if (!loc || !strcmp(loc, "C") || !strcmp(loc, "POSIX"))
        return NULL;
    const char *language = getenv("LANGUAGE");
    return language && *language ? language : loc;
}

int pr_l10n_init(const char *lang, pr_error *err)
{
    int asked = lang && *lang;
    const char *wish = asked ? lang : env_wish();
    if (!wish) {
        use_english();
        return 0;
    }
    /* a list, as LANGUAGE holds: the first that is English or has a catalog */
    char item[64];
    for (const char *p = wish; *p;) {
        size_t k = strcspn(p, ":");
        snprintf(item, sizeof item, "%.*s", (int)(k < 63 ? k : 63), p);
        p += k + (p[k] == ':');
        char norm[32], name[32], dir[4096];
        if (!normalize(item, norm, sizeof norm))
            continue;
        if (is_english(norm)) {
            use_english();
            return 0;
        }
        if (find_catalog(norm, name, sizeof name, dir) && use_catalog(name, dir))
            return 0;
        char base[32];
        snprintf(base, sizeof base, "%s", norm);
        if (strchr(base, '_'))
            *strchr(base, '_') = 0;
        const struct pr_builtin_template *b = builtin_catalog(norm, base);
        if (b && embedded_materialize(b, dir)) {
            int ok = use_catalog(b->name, dir);
            embedded_cleanup(b->name);
            if (ok) {
                snprintf(l10n.dir, sizeof l10n.dir, "(built in)");
                return 0;
            }
        }
    }
    use_english();
    if (!asked)
        return 0;
    char have[256];
    list_languages(have, sizeof have);
    return pr_error_set(err, PR_EUSAGE, NULL, 0, 0,
                        _("--lang %s: no message catalog for it (languages: %s)"), lang, have);
}

const char *pr_l10n_lang(void)
{
    return l10n.lang[0] ? l10n.lang : "en";
}

int pr_l10n_english(void)
{
    return !l10n.lang[0];
}

const char *pr_l10n_lang_tag(void)
{
    return l10n.tag[0] ? l10n.tag : "en";
}

const char *pr_l10n_localedir(void)
{
    return l10n.dir[0] ? l10n.dir : NULL;
}

const char *pr_l10n_pgettext(const char *ctx_word)
{
    const char *t = dgettext(PR_TEXTDOMAIN, ctx_word);
    if (t != ctx_word)
        return t;
    const char *eot = strchr(ctx_word, '\004');
    return eot ? eot + 1 : ctx_word;
}

/* "zh", "zh_CN", "pt_BR": a language name as template names carry it. */
static int looks_like_lang(const char *s, size_t n)
{
    if (n == 2 || n == 3)
        return islower((unsigned char)s[0]) && islower((unsigned char)s[1]) &&
               (n == 2 || islower((unsigned char)s[2]));
    return n == 5 && looks_like_lang(s, 2) && s[2] == '_' && isupper((unsigned char)s[3]) &&
           isupper((unsigned char)s[4]);
}

const char *pr_l10n_name_lang(const char *name, char *buf, size_t size)
{
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    const char *first = strchr(base, '.');
    const char *last = strrchr(base, '.');
    if (!first || first == last)
        return NULL;
    /* the components between the first and the last dot, last one first: "a.b.zh.md" */
    const char *end = last;
    while (end > first) {
        const char *start = end - 1;
        while (start > first && *start != '.')
            start--;
        size_t n = (size_t)(end - start - 1);
        if (looks_like_lang(start + 1, n) && n < size) {
            memcpy(buf, start + 1, n);
            buf[n] = 0;
            return buf;
        }
        end = start;
    }
    return NULL;
}

/* ---- time zone ---------------------------------------------------------------------------- */

/* "+08:00", "-0530", "+8" into minutes east of UTC. */
static int parse_offset(const char *s, int *out_min)
{
    if (*s != '+' && *s != '-')
        return -1;
    int sign = *s == '-' ? -1 : 1, h = 0, m = 0, nd = 0;
    const char *p = s + 1;
    for (; isdigit((unsigned char)*p) && nd < 2; p++, nd++)
        h = h * 10 + (*p - '0');
    if (nd == 0)
        return -1;
    if (*p == ':')
        p++;
    if (*p) {
        if (!isdigit((unsigned char)p[0]) || !isdigit((unsigned char)p[1]) || p[2])
            return -1;
        m = (p[0] - '0') * 10 + (p[1] - '0');
    }
    if (h > 14 || m > 59 || (h == 14 && m))
        return -1;
    *out_min = sign * (h * 60 + m);
    return 0;
}

/* An IANA name the tz database has: a file under TZDIR (or /usr/share/zoneinfo). */
static int known_zone(const char *name)
{
    if (!*name || name[0] == '/' || strstr(name, ".."))
        return 0;
    for (const char *c = name; *c; c++)
        if (!isalnum((unsigned char)*c) && !strchr("/_+-", *c))
            return 0;
    const char *tzdir = getenv("TZDIR");
    char p[4200];
    snprintf(p, sizeof p, "%s/%s", tzdir && *tzdir ? tzdir : "/usr/share/zoneinfo", name);
    return is_file(p);
}

int pr_l10n_set_tz(const char *zone, pr_error *err)
{
    l10n.tz_fixed = 0;
    if (!zone || !*zone) {
        tzset();
        return 0;
    }
    int off;
    if (!strcmp(zone, "UTC") || !strcmp(zone, "Z") || !strcmp(zone, "GMT")) {
        l10n.tz_fixed = 1;
        l10n.tz_fixed_min = 0;
        return 0;
    }
    if (parse_offset(zone, &off) == 0) {
        l10n.tz_fixed = 1;
        l10n.tz_fixed_min = off;
        return 0;
    }
    if (!known_zone(zone))
        return pr_error_set(err, PR_EUSAGE, NULL, 0, 0,
                            _("--tz %s: expected UTC, an offset like +08:00 or a time zone "
                              "name like Asia/Shanghai"),
                            zone);
    setenv("TZ", zone, 1);
    tzset();
    return 0;
}

int pr_l10n_offset_min(int64_t ns)
{
    if (l10n.tz_fixed)
        return l10n.tz_fixed_min;
    time_t t = (time_t)(ns / 1000000000LL);
    struct tm tm;
    if (!localtime_r(&t, &tm))
        return 0;
    return (int)(tm.tm_gmtoff / 60);
}

char *pr_l10n_time(int64_t ns, char *buf)
{
    int64_t s = ns / 1000000000LL;
    if (ns % 1000000000LL < 0 && s > INT64_MIN / 1000000000LL + 1)
        s--; /* whole seconds, rounded down */
    return pr_format_rfc3339(s * 1000000000LL, pr_l10n_offset_min(ns), buf);
}

char *pr_l10n_offset_text(int offset_min, char *buf)
{
    if (offset_min == 0)
        snprintf(buf, 16, "UTC");
    else
        snprintf(buf, 16, "UTC%c%02d:%02d", offset_min < 0 ? '-' : '+', abs(offset_min) / 60,
                 abs(offset_min) % 60);
    return buf;
}
