/* JWKS documents and their cache lifetime (see jwks.h). */
#include "mcp-server/http/oauth/jwks.h"
#include "common/alloc.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int jwks_parse(const cJSON *doc, struct jwks *set, char *why, size_t n)
{
    memset(set, 0, sizeof *set);
    const cJSON *keys = cJSON_IsObject(doc) ? cJSON_GetObjectItemCaseSensitive(doc, "keys") : NULL;
    if (!cJSON_IsArray(keys)) {
        snprintf(why, n, "it is not a JSON object with a keys array");
        return -1;
    }
    char first[300] = "";
    const cJSON *jwk;
    set->keys = xcalloc(JWKS_MAX_KEYS, sizeof *set->keys);
    cJSON_ArrayForEach(jwk, keys)
    {
        char reason[200];
        if (set->n == JWKS_MAX_KEYS) {
            set->skipped++;
            continue;
        }
        if (jose_key_from_jwk(jwk, &set->keys[set->n], reason, sizeof reason) == 0) {
            set->n++;
            continue;
        }
        if (set->skipped++ == 0) {
            const cJSON *kid = cJSON_GetObjectItemCaseSensitive(jwk, "kid");
            snprintf(first, sizeof first, "key %.60s: %s",
                     cJSON_IsString(kid) ? kid->valuestring : "(without kid)", reason);
        }
    }
    if (set->n == 0) {
        snprintf(why, n, "it has no key we can use%s%s", first[0] ? " (" : "",
                 first[0] ? first : "");
        if (first[0])
            snprintf(why + strlen(why), n - strlen(why), ")");
        jwks_clear(set);
        return -1;
    }
    return 0;
}

void jwks_clear(struct jwks *set)
{
    for (size_t i = 0; i < set->n; i++)
        jose_key_clear(&set->keys[i]);
    free(set->keys);
    memset(set, 0, sizeof *set);
}

const struct jose_key *jwks_find(const struct jwks *set, const char *kid, enum jose_alg alg,
                                 size_t i)
{
    if (set == NULL)
        return NULL;
    for (size_t k = 0; k < set->n; k++) {
        const struct jose_key *key = &set->keys[k];
        if (kid) {
            if (key->kid && strcmp(key->kid, kid) == 0)
                return key;
        } else if (jose_key_allows(key, alg) && i-- == 0) {
            return key;
        }
    }
    return NULL;
}

long jwks_cache_max_age(const char *cc)
{
    long age = -1;
    for (const char *p = cc; p && *p;) {
        while (*p == ' ' || *p == ',' || *p == '\t')
            p++;
        size_t w = strcspn(p, ",");
        if ((w == 8 && strncasecmp(p, "no-store", 8) == 0) ||
            (w == 8 && strncasecmp(p, "no-cache", 8) == 0))
            return 0;
        if (w > 8 && strncasecmp(p, "max-age=", 8) == 0 && isdigit((unsigned char) p[8])) {
            char *end;
            unsigned long v = strtoul(p + 8, &end, 10);
            age = v > 100000000UL ? 100000000L : (long) v;
        }
        p += w;
    }
    return age;
}
