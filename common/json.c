/* Exact compact JSON printing of cJSON trees (see json.h). */
#include "common/json.h"
#include "common/buf.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Decimal digits of v without printf (ids, counts and indexes are most of
 * the numbers we print, several per tool call). */
static int append_integer(struct buf *out, int64_t v)
{
    char tmp[24], *p = tmp + sizeof tmp;
    uint64_t u = v < 0 ? (uint64_t) -v : (uint64_t) v;
    do {
        *--p = (char) ('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        *--p = '-';
    return buf_append(out, p, (size_t) (tmp + sizeof tmp - p));
}

int json_append_number(struct buf *out, double d)
{
    if (isnan(d) || isinf(d))
        return buf_append_str(out, "null");
    if (d == 0)
        return buf_append_char(out, '0');
    if (d == floor(d) && fabs(d) < 9007199254740992.0) /* 2^53: exact in an int64 */
        return append_integer(out, (int64_t) d);
    if (d == floor(d) && fabs(d) < 1e17)
        return buf_printf(out, "%.0f", d);
    char tmp[40];
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, d);
        if (strtod(tmp, NULL) == d)
            break;
    }
    return buf_append_str(out, tmp);
}

static int append(struct buf *out, const cJSON *item, int depth)
{
    if (item == NULL || depth > 10000)
        return buf_append_str(out, "null");
    switch (item->type & 0xFF) {
    case cJSON_False:
        return buf_append_str(out, "false");
    case cJSON_True:
        return buf_append_str(out, "true");
    case cJSON_NULL:
        return buf_append_str(out, "null");
    case cJSON_Number:
        return json_append_number(out, item->valuedouble);
    case cJSON_String:
        return buf_append_json_string(out, item->valuestring ? item->valuestring : "",
                                      item->valuestring ? strlen(item->valuestring) : 0);
    case cJSON_Raw:
        return buf_append_str(out, item->valuestring ? item->valuestring : "null");
    case cJSON_Array:
    case cJSON_Object: {
        int obj = (item->type & 0xFF) == cJSON_Object;
        if (buf_append_char(out, obj ? '{' : '[') < 0)
            return -1;
        for (const cJSON *c = item->child; c; c = c->next) {
            if (c != item->child && buf_append_char(out, ',') < 0)
                return -1;
            if (obj) {
                const char *k = c->string ? c->string : "";
                if (buf_append_json_string(out, k, strlen(k)) < 0 || buf_append_char(out, ':') < 0)
                    return -1;
            }
            if (append(out, c, depth + 1) < 0)
                return -1;
        }
        return buf_append_char(out, obj ? '}' : ']');
    }
    default:
        return buf_append_str(out, "null");
    }
}

int json_append(struct buf *out, const cJSON *item)
{
    return append(out, item, 0);
}

char *json_print(const cJSON *item)
{
    struct buf b;
    buf_init(&b, 0);
    json_append(&b, item);
    return buf_steal(&b);
}
