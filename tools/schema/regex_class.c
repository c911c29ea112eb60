/* Character classes of schema patterns: range sets over code points, the
 * ECMA-262 class escapes (\d \w \s in Unicode mode, without the i flag) and
 * \p{...} General_Category properties. */
#include "tools/schema/regex_internal.h"
#include "tools/schema/unicode.h"
#include "common/alloc.h"

#include <stdlib.h>
#include <string.h>

void schema__rx_class_add(struct rx_class *cl, uint32_t lo, uint32_t hi)
{
    if (cl->nranges + 1 > cl->cap) {
        cl->cap = cl->cap ? cl->cap * 2 : 8;
        cl->ranges = xrealloc(cl->ranges, cl->cap * 2 * sizeof *cl->ranges);
    }
    cl->ranges[2 * cl->nranges] = lo;
    cl->ranges[2 * cl->nranges + 1] = hi;
    cl->nranges++;
}

void schema__rx_class_add_class(struct rx_class *cl, const struct rx_class *other)
{
    for (size_t i = 0; i < other->nranges; i++)
        schema__rx_class_add(cl, other->ranges[2 * i], other->ranges[2 * i + 1]);
    cl->cats |= other->cats;
}

static int cmp_range(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;
    return x < y ? -1 : x > y;
}

/* Sorts and merges the ranges so matching can binary-search them. */
void schema__rx_class_normalize(struct rx_class *cl)
{
    if (cl->nranges < 2)
        return;
    qsort(cl->ranges, cl->nranges, 2 * sizeof *cl->ranges, cmp_range);
    size_t out = 0;
    for (size_t i = 1; i < cl->nranges; i++) {
        uint32_t lo = cl->ranges[2 * i], hi = cl->ranges[2 * i + 1];
        uint32_t *last_hi = &cl->ranges[2 * out + 1];
        if (lo <= *last_hi + 1) {
            if (hi > *last_hi)
                *last_hi = hi;
            continue;
        }
        out++;
        cl->ranges[2 * out] = lo;
        cl->ranges[2 * out + 1] = hi;
    }
    cl->nranges = out + 1;
}

void schema__rx_class_free(struct rx_class *cl)
{
    free(cl->ranges);
    memset(cl, 0, sizeof *cl);
}

static int in_ranges(const struct rx_class *cl, uint32_t c)
{
    size_t lo = 0, hi = cl->nranges;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c < cl->ranges[2 * mid])
            hi = mid;
        else if (c > cl->ranges[2 * mid + 1])
            lo = mid + 1;
        else
            return 1;
    }
    return 0;
}

int schema__rx_class_matches(const struct rx_class *cl, uint32_t c)
{
    int in = in_ranges(cl, c);
    if (!in && cl->cats)
        in = (cl->cats >> schema__unicode_category(c)) & 1;
    return in != cl->negated;
}

int schema__rx_is_word(uint32_t c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

int schema__rx_is_line_terminator(uint32_t c)
{
    return c == '\n' || c == '\r' || c == 0x2028 || c == 0x2029;
}

/* ECMA-262 WhiteSpace and LineTerminator. */
static const uint32_t space_ranges[] = {
    0x09,   0x0D,   0x20,   0x20,   0xA0,   0xA0,   0x1680, 0x1680, 0x2000, 0x200A,
    0x2028, 0x2029, 0x202F, 0x202F, 0x205F, 0x205F, 0x3000, 0x3000, 0xFEFF, 0xFEFF,
};
static const uint32_t word_ranges[] = {'0', '9', 'A', 'Z', '_', '_', 'a', 'z'};
static const uint32_t digit_ranges[] = {'0', '9'};

/* Adds the complement of the sorted ranges r[0..n) within U+0000..U+10FFFF. */
static void add_complement(struct rx_class *cl, const uint32_t *r, size_t n)
{
    uint32_t next = 0;
    for (size_t i = 0; i < n; i++) {
        if (r[2 * i] > next)
            schema__rx_class_add(cl, next, r[2 * i] - 1);
        next = r[2 * i + 1] + 1;
    }
    if (next <= 0x10FFFF)
        schema__rx_class_add(cl, next, 0x10FFFF);
}

void schema__rx_class_escape(struct rx_class *cl, int letter)
{
    const uint32_t *r = digit_ranges;
    size_t n = 1;
    if (letter == 'w' || letter == 'W')
        r = word_ranges, n = 4;
    else if (letter == 's' || letter == 'S')
        r = space_ranges, n = sizeof space_ranges / sizeof space_ranges[0] / 2;
    if (letter >= 'a') {
        for (size_t i = 0; i < n; i++)
            schema__rx_class_add(cl, r[2 * i], r[2 * i + 1]);
    } else {
        add_complement(cl, r, n);
    }
}

#define GC(x) (1u << SCHEMA_GC_##x)
#define GC_L  (GC(Lu) | GC(Ll) | GC(Lt) | GC(Lm) | GC(Lo))
#define GC_M  (GC(Mn) | GC(Mc) | GC(Me))
#define GC_N  (GC(Nd) | GC(Nl) | GC(No))
#define GC_P  (GC(Pc) | GC(Pd) | GC(Ps) | GC(Pe) | GC(Pi) | GC(Pf) | GC(Po))
#define GC_S  (GC(Sm) | GC(Sc) | GC(Sk) | GC(So))
#define GC_Z  (GC(Zs) | GC(Zl) | GC(Zp))
#define GC_C  (GC(Cc) | GC(Cf) | GC(Cs) | GC(Co) | GC(Cn))

/* General_Category values: short name, long name, alias (ECMA-262 table 67). */
static const struct {
    const char *names[3];
    uint32_t mask;
} gc_names[] = {
    {{"L", "Letter", NULL}, GC_L},
    {{"LC", "Cased_Letter", NULL}, GC(Lu) | GC(Ll) | GC(Lt)},
    {{"Lu", "Uppercase_Letter", NULL}, GC(Lu)},
    {{"Ll", "Lowercase_Letter", NULL}, GC(Ll)},
    {{"Lt", "Titlecase_Letter", NULL}, GC(Lt)},
    {{"Lm", "Modifier_Letter", NULL}, GC(Lm)},
    {{"Lo", "Other_Letter", NULL}, GC(Lo)},
    {{"M", "Mark", "Combining_Mark"}, GC_M},
    {{"Mn", "Nonspacing_Mark", NULL}, GC(Mn)},
    {{"Mc", "Spacing_Mark", NULL}, GC(Mc)},
    {{"Me", "Enclosing_Mark", NULL}, GC(Me)},
    {{"N", "Number", NULL}, GC_N},
    {{"Nd", "Decimal_Number", "digit"}, GC(Nd)},
    {{"Nl", "Letter_Number", NULL}, GC(Nl)},
    {{"No", "Other_Number", NULL}, GC(No)},
    {{"P", "Punctuation", "punct"}, GC_P},
    {{"Pc", "Connector_Punctuation", NULL}, GC(Pc)},
    {{"Pd", "Dash_Punctuation", NULL}, GC(Pd)},
    {{"Ps", "Open_Punctuation", NULL}, GC(Ps)},
    {{"Pe", "Close_Punctuation", NULL}, GC(Pe)},
    {{"Pi", "Initial_Punctuation", NULL}, GC(Pi)},
    {{"Pf", "Final_Punctuation", NULL}, GC(Pf)},
    {{"Po", "Other_Punctuation", NULL}, GC(Po)},
    {{"S", "Symbol", NULL}, GC_S},
    {{"Sm", "Math_Symbol", NULL}, GC(Sm)},
    {{"Sc", "Currency_Symbol", NULL}, GC(Sc)},
    {{"Sk", "Modifier_Symbol", NULL}, GC(Sk)},
    {{"So", "Other_Symbol", NULL}, GC(So)},
    {{"Z", "Separator", NULL}, GC_Z},
    {{"Zs", "Space_Separator", NULL}, GC(Zs)},
    {{"Zl", "Line_Separator", NULL}, GC(Zl)},
    {{"Zp", "Paragraph_Separator", NULL}, GC(Zp)},
    {{"C", "Other", NULL}, GC_C},
    {{"Cc", "Control", "cntrl"}, GC(Cc)},
    {{"Cf", "Format", NULL}, GC(Cf)},
    {{"Cs", "Surrogate", NULL}, GC(Cs)},
    {{"Co", "Private_Use", NULL}, GC(Co)},
    {{"Cn", "Unassigned", NULL}, GC(Cn)},
};

static uint32_t gc_lookup(const char *name)
{
    for (size_t i = 0; i < sizeof gc_names / sizeof gc_names[0]; i++)
        for (int k = 0; k < 3; k++)
            if (gc_names[i].names[k] && strcmp(gc_names[i].names[k], name) == 0)
                return gc_names[i].mask;
    return 0;
}

/* Binary properties we can answer without more tables. */
static int binary_property(struct rx_class *cl, const char *name, int negate)
{
    static const uint32_t ascii[] = {0, 0x7F}, any[] = {0, 0x10FFFF};
    const uint32_t *r = strcmp(name, "ASCII") == 0 ? ascii : strcmp(name, "Any") == 0 ? any : NULL;
    if (strcmp(name, "Assigned") == 0) {
        cl->cats |= negate ? GC(Cn) : (SCHEMA_GC_ALL & ~GC(Cn));
        return 0;
    }
    if (r == NULL)
        return -1;
    if (negate)
        add_complement(cl, r, 1);
    else
        schema__rx_class_add(cl, r[0], r[1]);
    return 0;
}

int schema__rx_class_property(struct rx_class *cl, const char *name, int negate)
{
    uint32_t mask;
    if (strncmp(name, "General_Category=", 17) == 0)
        mask = gc_lookup(name + 17);
    else if (strncmp(name, "gc=", 3) == 0)
        mask = gc_lookup(name + 3);
    else if ((mask = gc_lookup(name)) == 0)
        return binary_property(cl, name, negate);
    if (mask == 0)
        return -1;
    /* Every code point has exactly one category, so \P{X} is \p{not X}. */
    cl->cats |= negate ? (SCHEMA_GC_ALL & ~mask) : mask;
    return 0;
}
