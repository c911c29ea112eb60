/* Date.parse beyond ISO 8601, as V8's legacy parser reads dates: a token
 * scan that collects up to three date numbers, a month name, a time
 * (h:mm[:ss[.fff]] with AM/PM) and a zone (UTC/GMT/Z, a US zone name or a
 * +hhmm offset), skipping commas, weekday names and parenthesised
 * comments. See date_parse.h for the forms. */
#include "sandbox/worker/date_parse.h"

#include "duktape.h"

#include <ctype.h>
#include <string.h>

#define MS_PER_DAY 86400000.0

struct parsed {
    long num[3];
    int ndigits[3];
    int nnum;
    int month; /* 1-12 from a name, 0 when none */
    int have_time, hour, minute, second, ms;
    int ampm;                /* 0 none, 1 AM, 2 PM */
    int have_zone, zone_min; /* offset east of UTC, minutes */
    int seen_number;
};

static const char *const MONTHS[] = {"jan", "feb", "mar", "apr", "may", "jun",
                                     "jul", "aug", "sep", "oct", "nov", "dec"};
static const char *const WEEKDAYS[] = {"sun", "mon", "tue", "wed", "thu", "fri", "sat"};
static const struct {
    const char *name;
    int offset_min;
} ZONES[] = {{"utc", 0},    {"gmt", 0},    {"ut", 0},     {"z", 0},
             {"est", -300}, {"edt", -240}, {"cst", -360}, {"cdt", -300},
             {"mst", -420}, {"mdt", -360}, {"pst", -480}, {"pdt", -420}};

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian; m 1-12). */
static double days_from_civil(long y, int m, int d)
{
    y -= m <= 2;
    long era = (y >= 0 ? y : y - 399) / 400;
    long yoe = y - era * 400;
    long doy = (153L * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return (double) era * 146097.0 + (double) doe - 719468.0;
}

static int word_is(const char *w, size_t n, const char *name)
{
    size_t len = strlen(name);
    if (n != len)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char) w[i]) != name[i])
            return 0;
    return 1;
}

/* A month or weekday name: its first three letters, then any more of it. */
static int name_prefix(const char *w, size_t n, const char *abbr)
{
    if (n < 3)
        return 0;
    for (size_t i = 0; i < 3; i++)
        if (tolower((unsigned char) w[i]) != abbr[i])
            return 0;
    return 1;
}

static long read_number(const char **p, int *digits)
{
    long v = 0;
    int n = 0;
    while (isdigit((unsigned char) **p)) {
        if (n < 9)
            v = v * 10 + (**p - '0');
        n++;
        (*p)++;
    }
    *digits = n;
    return v;
}

/* h:mm[:ss[.fff]] starting at a number followed by ':'. */
static int read_time(const char **p, struct parsed *r)
{
    int dg;
    if (r->have_time)
        return 0;
    r->hour = (int) read_number(p, &dg);
    if (**p != ':' || !isdigit((unsigned char) (*p)[1]))
        return 0;
    (*p)++;
    r->minute = (int) read_number(p, &dg);
    if (**p == ':' && isdigit((unsigned char) (*p)[1])) {
        (*p)++;
        r->second = (int) read_number(p, &dg);
        if (**p == '.' && isdigit((unsigned char) (*p)[1])) {
            (*p)++;
            const char *start = *p;
            long frac = read_number(p, &dg);
            int n = (int) (*p - start);
            while (n > 3) {
                frac /= 10;
                n--;
            }
            while (n < 3) {
                frac *= 10;
                n++;
            }
            r->ms = (int) frac;
        }
    }
    r->have_time = 1;
    return 1;
}

/* +hh, +hhmm or +hh:mm after a sign; returns 0 on a malformed offset. */
static int read_offset(const char **p, struct parsed *r)
{
    int sign = **p == '-' ? -1 : 1, dg;
    (*p)++;
    long v = read_number(p, &dg);
    if (dg == 0 || dg > 4)
        return 0;
    long h = v, m = 0;
    if (dg > 2) {
        h = v / 100;
        m = v % 100;
    } else if (**p == ':' && isdigit((unsigned char) (*p)[1])) {
        (*p)++;
        m = read_number(p, &dg);
    }
    if (h > 24 || m > 59)
        return 0;
    r->have_zone = 1;
    r->zone_min = sign * (int) (h * 60 + m);
    return 1;
}

static int read_word(const char **p, struct parsed *r)
{
    const char *w = *p;
    while (isalpha((unsigned char) **p) || **p == '.')
        (*p)++;
    size_t n = (size_t) (*p - w);
    while (n > 0 && w[n - 1] == '.')
        n--;
    if (word_is(w, n, "am") || word_is(w, n, "a.m")) {
        r->ampm = 1;
        return 1;
    }
    if (word_is(w, n, "pm") || word_is(w, n, "p.m")) {
        r->ampm = 2;
        return 1;
    }
    if (word_is(w, n, "t"))
        return 1;
    for (size_t i = 0; i < sizeof ZONES / sizeof ZONES[0]; i++)
        if (word_is(w, n, ZONES[i].name)) {
            r->have_zone = 1;
            r->zone_min = ZONES[i].offset_min;
            return 1;
        }
    for (int i = 0; i < 12; i++)
        if (name_prefix(w, n, MONTHS[i])) {
            r->month = i + 1; /* the last one named counts, as in V8 */
            return 1;
        }
    for (int i = 0; i < 7; i++)
        if (name_prefix(w, n, WEEKDAYS[i]))
            return 1;
    /* other words are ignored before the first number, as V8 does */
    return !r->seen_number;
}

static int scan(const char *s, struct parsed *r)
{
    const char *p = s;
    while (*p) {
        unsigned char c = (unsigned char) *p;
        if (isspace(c) || c == ',') {
            p++;
        } else if (c == '(') {
            int depth = 0;
            do {
                depth += *p == '(';
                depth -= *p == ')';
                p++;
            } while (*p && depth > 0);
        } else if (isdigit(c)) {
            const char *q = p;
            int dg;
            read_number(&q, &dg);
            r->seen_number = 1;
            if (*q == ':') {
                if (!read_time(&p, r))
                    return 0;
                continue;
            }
            if (r->nnum == 3)
                return 0;
            r->num[r->nnum] = read_number(&p, &r->ndigits[r->nnum]);
            r->nnum++;
            if ((*p == '/' || *p == '-') && isdigit((unsigned char) p[1]))
                p++;
        } else if (c == '+' || c == '-') {
            if (!(r->have_time || r->have_zone) || !isdigit((unsigned char) p[1]) ||
                !read_offset(&p, r))
                return 0;
        } else if (isalpha(c)) {
            if (!read_word(&p, r))
                return 0;
        } else {
            return 0;
        }
    }
    return 1;
}

static long full_year(long y, int digits)
{
    if (digits <= 2 && y < 100)
        return y < 50 ? 2000 + y : 1900 + y;
    return y;
}

int sandbox_date_parse(const char *s, double *ms)
{
    struct parsed r;
    memset(&r, 0, sizeof r);
    if (s == NULL || !scan(s, &r))
        return 0;
    long y, m, d;
    int year_digits;
    if (r.month) {
        m = r.month;
        if (r.nnum == 2) {
            int year_first = r.num[0] > 31 || r.ndigits[0] >= 3;
            y = r.num[year_first ? 0 : 1];
            year_digits = r.ndigits[year_first ? 0 : 1];
            d = r.num[year_first ? 1 : 0];
        } else if (r.nnum == 1) {
            if (r.num[0] > 31 || r.ndigits[0] >= 3) {
                y = r.num[0];
                year_digits = r.ndigits[0];
                d = 1;
            } else {
                y = 2001;
                year_digits = 4;
                d = r.num[0];
            }
        } else {
            return 0;
        }
    } else if (r.nnum == 3) {
        int year_first = r.num[0] > 31 || r.ndigits[0] >= 3;
        y = year_first ? r.num[0] : r.num[2];
        year_digits = year_first ? r.ndigits[0] : r.ndigits[2];
        m = r.num[year_first ? 1 : 0];
        d = r.num[year_first ? 2 : 1];
    } else if (r.nnum == 2 && r.num[0] <= 12) {
        y = 2001;
        year_digits = 4;
        m = r.num[0];
        d = r.num[1];
    } else {
        return 0;
    }
    y = full_year(y, year_digits);
    if (m < 1 || m > 12 || d < 1 || d > 31 || y > 275760 || y < -271821)
        return 0;
    int hour = r.hour;
    if (r.ampm) {
        if (!r.have_time && r.nnum == 0)
            return 0;
        if (hour < 1 || hour > 12)
            return 0;
        hour = hour % 12 + (r.ampm == 2 ? 12 : 0);
    }
    if (hour > 24 || r.minute > 59 || r.second > 59 ||
        (hour == 24 && (r.minute || r.second || r.ms)))
        return 0;
    double t = days_from_civil(y, (int) m, (int) d) * MS_PER_DAY +
               ((hour * 60.0 + r.minute) * 60.0 + r.second) * 1000.0 + r.ms;
    t -= r.zone_min * 60000.0;
    if (t > 8.64e15 || t < -8.64e15)
        return 0;
    *ms = t;
    return 1;
}

int sandbox__date_parse_string(void *ctx, const char *s)
{
    double ms;
    if (!sandbox_date_parse(s, &ms))
        return 0;
    duk_push_number((duk_context *) ctx, ms);
    return 1;
}
