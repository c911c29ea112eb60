/* libcurl, loaded with dlopen the first time an HTTP downstream needs it:
 * linked at start-up it brought ~30 libraries (TLS, Kerberos, LDAP, ...)
 * into every server process, ~5 MiB of resident pages that a server with
 * only stdio downstreams never uses. Compiled against <curl/curl.h>; the
 * library is found at run time as libcurl.so.4 (the ABI of libcurl 7.16+),
 * or at the path or name in the environment variable MCP_CODEMODE_LIBCURL. */
#ifndef TRANSPORT_CURL_LIB_H
#define TRANSPORT_CURL_LIB_H

#include <curl/curl.h>
#include <stddef.h>

/* The functions mcp-codemode calls, named as in libcurl without "curl_". */
struct curl_lib {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *e, CURLoption option, ...);
    CURLcode (*easy_getinfo)(CURL *e, CURLINFO info, ...);
    void (*easy_cleanup)(CURL *e);
    const char *(*easy_strerror)(CURLcode code);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *s);
    void (*slist_free_all)(struct curl_slist *list);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_setopt)(CURLM *m, CURLMoption option, ...);
    CURLMcode (*multi_add_handle)(CURLM *m, CURL *e);
    CURLMcode (*multi_remove_handle)(CURLM *m, CURL *e);
    CURLMcode (*multi_assign)(CURLM *m, curl_socket_t fd, void *p);
    CURLMcode (*multi_socket_action)(CURLM *m, curl_socket_t fd, int mask, int *running);
    CURLMsg *(*multi_info_read)(CURLM *m, int *left);
    CURLMcode (*multi_cleanup)(CURLM *m);
    CURLU *(*url)(void);
    CURLUcode (*url_set)(CURLU *u, CURLUPart part, const char *content, unsigned int flags);
    CURLUcode (*url_get)(const CURLU *u, CURLUPart part, char **content, unsigned int flags);
    void (*url_cleanup)(CURLU *u);
    void (*free)(void *p);
};

/* The library, loaded and initialised (curl_global_init) on the first call,
 * the same table after. NULL when it cannot be loaded, with a sentence in
 * err (errlen bytes, may be 0) naming the library and the loader's reason;
 * a later call tries again. The loop thread only. */
const struct curl_lib *curl_lib_load(char *err, size_t errlen);

#endif
