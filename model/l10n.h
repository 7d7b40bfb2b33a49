/* The reader's language and time zone: GNU gettext message catalogs (po/) and ISO 8601 dates. */
#ifndef PR_L10N_H
#define PR_L10N_H
#include <libintl.h>
#include <stddef.h>
#include <stdint.h>
#include "model/error.h"

/* The message catalog: po/perfreport.pot, po/LANG.po, compiled by msgfmt into
 * LOCALEDIR/LANG/LC_MESSAGES/perfreport.mo (docs/l10n.md). */
#define PR_TEXTDOMAIN "perfreport"

/* _("text"): text in the reader's language. N_("text") only marks text that a table holds and
 * that is translated where it is used, with _(). C_("context", "word") translates a short word
 * whose translation depends on where it stands (a msgctxt); NC_ marks one in a table (the
 * context and the word in one string), which pr_l10n_pgettext then translates.
 * n_("%d run", "%d runs", n): the plural form for n. Every
 * English msgid is also the English text: without a catalog everything reads as written. */
#define _(s) dgettext(PR_TEXTDOMAIN, s)
#define N_(s) s
#define C_(ctx, s) pr_l10n_pgettext(ctx "\004" s)
#define NC_(ctx, s) ctx "\004" s
#define n_(s, p, n) dngettext(PR_TEXTDOMAIN, s, p, (unsigned long)(n))

/* Chooses the language of everything written after it. lang: "zh_CN", "zh", "en", "C" (English),
 * NULL or "" = the environment, as gettext reads it (LANGUAGE, unless the locale is C/POSIX,
 * then LC_ALL, LC_MESSAGES, LANG). Needs no installed system locale. The catalog is looked up
 * in $PERFREPORT_LOCALEDIR, beside the binary (its build tree: build/locale, locale), then the
 * install prefix's share/locale. A language from the environment without a catalog is
 * English; one asked for by name (--lang) without a catalog is an error (PR_EUSAGE, naming
 * the languages there are). Returns 0 or that error. */
int pr_l10n_init(const char *lang, pr_error *err);
/* The language in use: "en" or a catalog's name ("zh_CN"). */
const char *pr_l10n_lang(void);
/* 1 when the language in use is English (the msgids). */
int pr_l10n_english(void);
/* The language in use as an HTML/BCP 47 tag: "en", "zh-CN". */
const char *pr_l10n_lang_tag(void);
/* The folder holding the catalogs found by pr_l10n_init, or NULL (English only). */
const char *pr_l10n_localedir(void);
/* The translation of "context\004word", else word (GNU gettext's pgettext). */
const char *pr_l10n_pgettext(const char *ctx_word) __attribute__((format_arg(1)));
/* The language a template's name declares: "report.zh.md" and "x.zh_CN.html" say zh_CN or zh;
 * writes it into buf and returns buf, or NULL when the name declares none. */
const char *pr_l10n_name_lang(const char *name, char *buf, size_t size);

/* The reader's time zone for every date written after it: zone "UTC", "Z", "+08:00", "-0530",
 * "+8", an IANA name ("Asia/Shanghai", looked up in the tz database) or NULL/"" = the
 * environment (TZ, else the system's local time). Returns 0, or PR_EUSAGE for a zone it
 * cannot read (the message says what it expected). */
int pr_l10n_set_tz(const char *zone, pr_error *err);
/* The reader's offset from UTC in minutes at the instant ns (since the Unix epoch). */
int pr_l10n_offset_min(int64_t ns);
/* The instant ns as ISO 8601 in the reader's time zone, whole seconds (never fractions) and its
 * offset: "2026-11-30T23:11:38+08:00", "2026-11-30T15:11:38Z" in UTC. buf >= 40 bytes. */
char *pr_l10n_time(int64_t ns, char *buf);
/* The reader's offset as text for axis titles: "UTC", "UTC+08:00". buf >= 16 bytes. */
char *pr_l10n_offset_text(int offset_min, char *buf);

#endif
