/* Loads libcurl on first use (transport/curl_lib.h): dlopen of
 * libcurl.so.4 (or of $MCP_CODEMODE_LIBCURL), one dlsym per function,
 * curl_global_init once. */
#include "transport/curl_lib.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CURL_SONAME "libcurl.so.4"

static struct curl_lib lib;
static int loaded;

/* Each slot of struct curl_lib and its symbol. */
#define SLOT(field) {"curl_" #field, offsetof(struct curl_lib, field)}
static const struct {
    const char *symbol;
    size_t offset;
} slots[] = {
    SLOT(global_init),      SLOT(easy_init),           SLOT(easy_setopt),
    SLOT(easy_getinfo),     SLOT(easy_cleanup),        SLOT(easy_strerror),
    SLOT(slist_append),     SLOT(slist_free_all),      SLOT(multi_init),
    SLOT(multi_setopt),     SLOT(multi_add_handle),    SLOT(multi_remove_handle),
    SLOT(multi_assign),     SLOT(multi_socket_action), SLOT(multi_info_read),
    SLOT(multi_cleanup),    SLOT(url),                 SLOT(url_set),
    SLOT(url_get),          SLOT(url_cleanup),         SLOT(free),
};

/* The library to load: MCP_CODEMODE_LIBCURL when set and not empty (a
 * libcurl installed elsewhere, or under another name), else the soname. */
static const char *library(void)
{
    const char *env = getenv("MCP_CODEMODE_LIBCURL");
    return env && *env ? env : CURL_SONAME;
}

static void say(char *err, size_t errlen, const char *what, const char *why)
{
    if (errlen)
        snprintf(err, errlen, "cannot load %s (needed for HTTP and SSE servers): %s%s", library(),
                 what, why ? why : "unknown error");
}

const struct curl_lib *curl_lib_load(char *err, size_t errlen)
{
    if (loaded)
        return &lib;
    void *h = dlopen(library(), RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        say(err, errlen, "", dlerror());
        return NULL;
    }
    struct curl_lib l;
    for (size_t i = 0; i < sizeof slots / sizeof slots[0]; i++) {
        void *sym = dlsym(h, slots[i].symbol);
        if (sym == NULL) {
            say(err, errlen, "missing symbol: ", slots[i].symbol);
            dlclose(h);
            return NULL;
        }
        memcpy((char *) &l + slots[i].offset, &sym, sizeof sym);
    }
    if (l.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        say(err, errlen, "", "curl_global_init failed");
        dlclose(h);
        return NULL;
    }
    lib = l;
    loaded = 1; /* never unloaded: libcurl's global state lives until exit */
    return &lib;
}
