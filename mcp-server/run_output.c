/* `mcp-codemode run`'s output (mcp-server/run_output.h): the result as text
 * or JSON, the dry run's plan, and the files of `run --out DIR`. */
#include "mcp-server/run_output.h"
#include "mcp-server/execute/plan.h"
#include "mcp-server/stash.h"
#include "common/alloc.h"
#include "common/base64.h"
#include "common/buf.h"
#include "common/json.h"
#include "common/utf8.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#define PLAN_ARGUMENT_BYTES 200 /* arguments shown per planned call in text */

struct run_output {
    int json;
    const char *dir;
    cJSON *result;
    char **uris;       /* stash links of the result, to read (with dir) */
    cJSON **contents;  /* what resources/read answered for each, or NULL */
    size_t nuris;
    int write_failed;
};

struct run_output *run_output_new(int json, const char *out_dir)
{
    struct run_output *o = xcalloc(1, sizeof *o);
    o->json = json;
    o->dir = out_dir;
    return o;
}

void run_output_free(struct run_output *o)
{
    if (o == NULL)
        return;
    for (size_t i = 0; i < o->nuris; i++) {
        free(o->uris[i]);
        cJSON_Delete(o->contents[i]);
    }
    free(o->uris);
    free(o->contents);
    cJSON_Delete(o->result);
    free(o);
}

int run_output_make_dir(const char *dir, char *err, size_t errsz)
{
    char *path = xstrdup(dir);
    int rc = 0;
    for (char *p = path + 1;; p++) {
        char c = *p;
        if (c != '/' && c != '\0')
            continue;
        *p = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST) {
            snprintf(err, errsz, "--out %s: cannot create %s: %s", dir, path, strerror(errno));
            rc = -1;
            break;
        }
        *p = c;
        if (c == '\0')
            break;
    }
    struct stat st;
    if (rc == 0 && (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))) {
        snprintf(err, errsz, "--out %s: not a directory", dir);
        rc = -1;
    }
    free(path);
    return rc;
}

static const char *str_of(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int is_stash_uri(const char *uri)
{
    return uri && strncmp(uri, MCP_STASH_PREFIX, strlen(MCP_STASH_PREFIX)) == 0;
}

size_t run_output_take(struct run_output *o, const cJSON *result)
{
    o->result = cJSON_Duplicate(result, 1);
    if (o->dir == NULL)
        return 0;
    const cJSON *b;
    cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(o->result, "content"))
    {
        const char *type = str_of(b, "type"), *uri = str_of(b, "uri");
        if (type == NULL || strcmp(type, "resource_link") != 0 || !is_stash_uri(uri))
            continue;
        o->uris = xrealloc(o->uris, (o->nuris + 1) * sizeof *o->uris);
        o->contents = xrealloc(o->contents, (o->nuris + 1) * sizeof *o->contents);
        o->uris[o->nuris] = xstrdup(uri);
        o->contents[o->nuris++] = NULL;
    }
    return o->nuris;
}

const char *run_output_stash_uri(const struct run_output *o, size_t i)
{
    return i < o->nuris ? o->uris[i] : NULL;
}

void run_output_stash_read(struct run_output *o, size_t i, const cJSON *result)
{
    const cJSON *c = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(result, "contents"), 0);
    if (i < o->nuris && cJSON_IsObject(c) && o->contents[i] == NULL)
        o->contents[i] = cJSON_Duplicate(c, 1);
}

/* What resources/read answered for uri, or NULL. */
static const cJSON *stash_contents(const struct run_output *o, const char *uri)
{
    for (size_t i = 0; uri && i < o->nuris; i++)
        if (strcmp(o->uris[i], uri) == 0)
            return o->contents[i];
    return NULL;
}

/* --- files ---------------------------------------------------------------------------- */

const char *run_output_extension(const char *mime, char buf[16])
{
    static const struct {
        const char *mime, *ext;
    } known[] = {
        {"image/jpeg", "jpg"},     {"image/svg+xml", "svg"},       {"image/x-icon", "ico"},
        {"audio/mpeg", "mp3"},     {"audio/x-wav", "wav"},         {"audio/wave", "wav"},
        {"audio/mp4", "m4a"},      {"text/plain", "txt"},          {"text/markdown", "md"},
        {"text/javascript", "js"}, {"application/javascript", "js"},
        {"application/octet-stream", "bin"},
    };
    if (mime == NULL)
        return "bin";
    size_t mlen = strcspn(mime, ";"); /* without parameters (charset=...) */
    while (mlen > 0 && mime[mlen - 1] == ' ')
        mlen--;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strlen(known[i].mime) == mlen && strncasecmp(mime, known[i].mime, mlen) == 0)
            return known[i].ext;
    /* else the subtype, when it is a short word: image/png -> png, application/json -> json */
    const char *slash = memchr(mime, '/', mlen);
    if (slash == NULL)
        return "bin";
    size_t n = mlen - (size_t) (slash + 1 - mime);
    if (n == 0 || n > 8)
        return "bin";
    for (size_t i = 0; i < n; i++) {
        char c = slash[1 + i];
        if (c >= 'A' && c <= 'Z')
            c = (char) (c - 'A' + 'a');
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
            return "bin";
        buf[i] = c;
    }
    buf[n] = '\0';
    return buf;
}

/* dir/name, malloc'd. */
static char *path_in(const struct run_output *o, const char *name)
{
    struct buf p;
    buf_init(&p, 0);
    buf_append_str(&p, o->dir);
    if (p.len == 0 || p.data[p.len - 1] != '/')
        buf_append_char(&p, '/');
    buf_append_str(&p, name);
    return buf_steal(&p);
}

/* Writes data to path: 0, or -1 (reported on stderr, remembered). */
static int write_file(struct run_output *o, const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(data, 1, len, f) == len;
    if (f && fclose(f) != 0)
        ok = 0;
    if (!ok) {
        fprintf(stderr, "mcp-codemode: %s: %s\n", path, strerror(errno ? errno : EIO));
        o->write_failed = 1;
    }
    return ok ? 0 : -1;
}

/* Writes text (internal form: common/utf8.h) or base64 data (is_base64)
 * to dir/<stem>.<extension of mime>; the path (malloc'd) and the size
 * written, or NULL. */
static char *write_payload(struct run_output *o, const char *stem, const char *mime,
                           const char *data, int is_base64, size_t *size)
{
    char ext_buf[16], name[64];
    snprintf(name, sizeof name, "%s.%s", stem, run_output_extension(mime, ext_buf));
    char *path = path_in(o, name);
    struct buf bytes;
    buf_init(&bytes, 0);
    int rc = -1;
    if (is_base64) {
        size_t n = strlen(data);
        unsigned char *raw = xmalloc(n / 4 * 3 + 3);
        long len = base64_decode(data, n, raw);
        if (len < 0) {
            fprintf(stderr, "mcp-codemode: %s: the data is not base64; not written\n", path);
            o->write_failed = 1;
        } else {
            rc = write_file(o, path, raw, (size_t) len);
            *size = (size_t) len;
        }
        free(raw);
    } else {
        utf8_append_external(&bytes, data, strlen(data));
        rc = write_file(o, path, bytes.data ? bytes.data : "", bytes.len);
        *size = bytes.len;
    }
    buf_free(&bytes);
    if (rc != 0) {
        free(path);
        return NULL;
    }
    return path;
}

/* Writes resources/read contents {mimeType, text | blob}: the path, or NULL. */
static char *write_contents(struct run_output *o, const char *stem, const cJSON *c, size_t *size)
{
    const char *blob = str_of(c, "blob"), *text = str_of(c, "text");
    if (blob == NULL && text == NULL)
        return NULL;
    return write_payload(o, stem, str_of(c, "mimeType"), blob ? blob : text, blob != NULL, size);
}

/* --- text ----------------------------------------------------------------------------- */

/* Writes a string (internal form) and a newline to f as its own bytes. */
static void print_text(FILE *f, const char *s, size_t n)
{
    struct buf b;
    buf_init(&b, 0);
    utf8_append_external(&b, s, n);
    buf_append_char(&b, '\n');
    fwrite(b.data, 1, b.len, f);
    buf_free(&b);
}

static const char no_dir_hint[] = "run with --out DIR to write it to a file";

/* One content block i (1-based) that is not text, as a line; with dir, its file. */
static void print_block(struct run_output *o, const cJSON *b, int i, const cJSON *summary)
{
    const char *type = str_of(b, "type"), *mime = str_of(b, "mimeType"), *uri = str_of(b, "uri");
    const cJSON *res = cJSON_GetObjectItemCaseSensitive(b, "resource");
    const cJSON *bytes = cJSON_GetObjectItemCaseSensitive(summary, "bytes");
    char stem[16], *path = NULL;
    size_t size = cJSON_IsNumber(bytes) ? (size_t) bytes->valuedouble : 0;
    snprintf(stem, sizeof stem, "%d", i);
    type = type ? type : "block";
    if (res) {
        mime = str_of(res, "mimeType");
        uri = str_of(res, "uri");
    }
    int stashed = strcmp(type, "resource_link") == 0 && is_stash_uri(uri);
    if (o->dir && (strcmp(type, "image") == 0 || strcmp(type, "audio") == 0) && str_of(b, "data"))
        path = write_payload(o, stem, mime, str_of(b, "data"), 1, &size);
    else if (o->dir && res)
        path = write_contents(o, stem, res, &size);
    else if (o->dir && stashed && stash_contents(o, uri))
        path = write_contents(o, stem, stash_contents(o, uri), &size);
    printf("[%s%s%s", stashed ? "stashed" : type, mime ? " " : "", mime ? mime : "");
    if (uri && !stashed)
        printf(" %s", uri);
    if (size || path)
        printf(", %zu bytes", size);
    if (path)
        printf(": %s]\n", path);
    else if (stashed)
        printf(": kept by the program with content.stash, gone when run exits; %s]\n",
               o->dir ? "it could not be read" : no_dir_hint);
    else if (strcmp(type, "resource_link") == 0 || o->dir)
        printf("]\n");
    else
        printf("; %s]\n", no_dir_hint);
    free(path);
}

/* A program that returned content blocks: each text as it is, the others as
 * one line saying what they are (and where their file is). */
static void print_blocks(struct run_output *o, const cJSON *content, const cJSON *summaries)
{
    int n = cJSON_GetArraySize(summaries), i = 0;
    for (const cJSON *b = content ? content->child : NULL; b && i < n; b = b->next) {
        const char *text = str_of(b, "text");
        i++;
        if (text)
            print_text(stdout, text, strlen(text));
        else
            print_block(o, b, i, cJSON_GetArrayItem(summaries, i - 1));
    }
}

/* A result over maxResultBytes: with dir, the whole of it in result.json;
 * else the preview and a notice that does not name the stash. */
static void print_truncated(struct run_output *o, const char *text, const cJSON *trunc)
{
    const cJSON *bytes = cJSON_GetObjectItemCaseSensitive(trunc, "bytes");
    const cJSON *limit = cJSON_GetObjectItemCaseSensitive(trunc, "limit");
    const char *uri = str_of(trunc, "uri");
    double nb = cJSON_IsNumber(bytes) ? bytes->valuedouble : 0;
    double nl = cJSON_IsNumber(limit) ? limit->valuedouble : 0;
    const cJSON *whole = o->dir ? stash_contents(o, uri) : NULL;
    size_t size = 0;
    char *path = whole ? write_contents(o, "result", whole, &size) : NULL;
    if (path) {
        printf("[result: its JSON is %.0f bytes, over the limit of %.0f bytes "
               "(maxResultBytes); written whole to %s]\n",
               nb, nl, path);
        free(path);
        return;
    }
    const char *notice = text ? strstr(text, "\n[result truncated: ") : NULL;
    for (const char *p = notice; p; p = strstr(p + 1, "\n[result truncated: "))
        notice = p; /* the last one: the preview itself may hold the words */
    if (text == NULL || notice == NULL || uri == NULL) {
        if (text)
            print_text(stdout, text, strlen(text));
        return;
    }
    print_text(stdout, text, (size_t) (notice - text));
    printf("[result truncated: its JSON is %.0f bytes, over the limit of %.0f bytes; %s]\n", nb,
           nl, o->dir ? "the whole result could not be read" : "run with --out DIR to write the whole result to a file");
}

/* --- JSON ----------------------------------------------------------------------------- */

/* Replaces a stash uri of summary (the run's own, gone when it exits) by
 * the file it was written to, when there is one. */
static void adjust_summary(cJSON *summary, const char *path)
{
    if (is_stash_uri(str_of(summary, "uri")))
        cJSON_DeleteItemFromObjectCaseSensitive(summary, "uri");
    if (path)
        cJSON_AddStringToObject(summary, "file", path);
}

/* structuredContent with the files of --out and without stash URIs. */
static void print_json(struct run_output *o)
{
    cJSON *sc = cJSON_GetObjectItemCaseSensitive(o->result, "structuredContent");
    cJSON *trunc = cJSON_GetObjectItemCaseSensitive(sc, "resultTruncated");
    const cJSON *content = cJSON_GetObjectItemCaseSensitive(o->result, "content");
    cJSON *summaries = cJSON_GetObjectItemCaseSensitive(sc, "content");
    size_t size;
    if (trunc) {
        const cJSON *whole = o->dir ? stash_contents(o, str_of(trunc, "uri")) : NULL;
        char *path = whole ? write_contents(o, "result", whole, &size) : NULL;
        adjust_summary(trunc, path);
        free(path);
    }
    int i = 0;
    cJSON *s;
    cJSON_ArrayForEach(s, summaries)
    {
        const cJSON *b = cJSON_GetArrayItem(content, i++);
        const char *type = str_of(b, "type");
        const cJSON *res = cJSON_GetObjectItemCaseSensitive(b, "resource");
        char stem[16], *path = NULL;
        snprintf(stem, sizeof stem, "%d", i);
        if (o->dir && type && (strcmp(type, "image") == 0 || strcmp(type, "audio") == 0) &&
            str_of(b, "data"))
            path = write_payload(o, stem, str_of(b, "mimeType"), str_of(b, "data"), 1, &size);
        else if (o->dir && res)
            path = write_contents(o, stem, res, &size);
        else if (o->dir && stash_contents(o, str_of(b, "uri")))
            path = write_contents(o, stem, stash_contents(o, str_of(b, "uri")), &size);
        adjust_summary(s, path);
        free(path);
    }
    char *text = json_print(sc);
    printf("%s\n", text ? text : "null");
    free(text);
}

int run_output_print(struct run_output *o)
{
    const cJSON *r = o->result;
    int failed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "isError"));
    const cJSON *content = cJSON_GetObjectItemCaseSensitive(r, "content");
    const cJSON *sc = cJSON_GetObjectItemCaseSensitive(r, "structuredContent");
    const cJSON *summaries = cJSON_GetObjectItemCaseSensitive(sc, "content");
    const cJSON *trunc = cJSON_GetObjectItemCaseSensitive(sc, "resultTruncated");
    const cJSON *planned = cJSON_GetObjectItemCaseSensitive(sc, "plannedCalls");
    const char *text = str_of(cJSON_GetArrayItem(content, 0), "text");
    if (o->json) {
        print_json(o);
    } else {
        if (failed && text)
            print_text(stderr, text, strlen(text));
        else if (trunc)
            print_truncated(o, text, trunc);
        else if (cJSON_IsArray(summaries))
            print_blocks(o, content, summaries);
        else if (text)
            print_text(stdout, text, strlen(text));
        if (cJSON_IsArray(planned)) {
            struct buf b;
            buf_init(&b, 0);
            mcp_plan_append(&b, planned, PLAN_ARGUMENT_BYTES);
            print_text(stdout, b.data, b.len);
            buf_free(&b);
        }
    }
    fflush(stdout);
    return failed || o->write_failed ? 1 : 0;
}
