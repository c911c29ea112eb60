/* `mcp-codemode state list|get|set|delete` (mcp-server/state_cmd.h): the
 * keys of one principal's state, or of the server's, through the state
 * service (the checks and errors of state.* in a program) and the store's
 * interface (tools/state/store.h), never its SQL. */
#include "mcp-server/state_cmd.h"
#include "mcp-server/app.h"
#include "mcp-server/config/config.h"
#include "tools/state/service.h"
#include "common/buf.h"
#include "common/json.h"
#include "common/utf8.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- the command line -------------------------------------------------------------------- */

static int is_action(const char *a)
{
    return a && (!strcmp(a, "list") || !strcmp(a, "get") || !strcmp(a, "set") ||
                 !strcmp(a, "delete"));
}

int state_cmd_word(struct cli *cli, const char *a)
{
    const char *act = cli->state.action;
    if (act == NULL)
        cli->state.action = a;
    else if (cli->state.key == NULL && is_action(act)) /* list: the prefix */
        cli->state.key = a;
    else if (strcmp(act, "set") == 0 && cli->state.value == NULL)
        cli->state.value = a;
    else
        return -1;
    return 0;
}

const char **state_cmd_flag(struct cli *cli, const char *a, size_t nlen)
{
    if (nlen == 7 && !strncmp(a, "--scope", 7))
        return &cli->state.scope;
    if (nlen == 12 && !strncmp(a, "--if-version", 12))
        return &cli->state.if_version;
    return NULL;
}

static const char usage[] = "state: expected list [PREFIX], get KEY, set KEY JSON|- "
                            "[--if-version N], or delete KEY";

int state_cmd_check(const struct cli *cli, char *err, size_t errsz)
{
    const char *act = cli->state.action, *scope = cli->state.scope;
    if (!is_action(act) || (strcmp(act, "list") != 0 && cli->state.key == NULL) ||
        (strcmp(act, "set") == 0 && cli->state.value == NULL)) {
        snprintf(err, errsz, "%s", usage);
        return -1;
    }
    if (scope && strcmp(scope, "server") != 0 && strcmp(scope, "principal") != 0) {
        snprintf(err, errsz, "--scope takes server or principal, not \"%s\"", scope);
        return -1;
    }
    if (scope && strcmp(scope, "server") == 0 && cli->principal) {
        snprintf(err, errsz, "--scope server and --principal exclude each other: the server's "
                             "keys belong to no principal");
        return -1;
    }
    if (cli->state.if_version && strcmp(act, "set") != 0) {
        snprintf(err, errsz, "--if-version is an option of state set");
        return -1;
    }
    return 0;
}

/* --- running it ---------------------------------------------------------------------------- */

/* The scope the command works on: "" for the server's keys, else a principal. */
static const char *scope_of(const struct config *cfg, const struct cli *cli)
{
    if (cli->state.scope && strcmp(cli->state.scope, "server") == 0)
        return "";
    if (cli->principal)
        return cli->principal;
    if (cli->state.scope) /* "principal": the one run uses */
        return APP_RUN_PRINCIPAL;
    return cfg->state.per_principal ? APP_RUN_PRINCIPAL : "";
}

/* "the state of principal "cli"" or "the server's state", for messages. */
static void describe_scope(struct buf *b, const char *scope)
{
    if (scope[0] == '\0') {
        buf_append_str(b, "the server's state");
        return;
    }
    buf_append_str(b, "the state of principal ");
    json_append_string(b, scope, strlen(scope));
}

static struct tools_state_service *open_service(const struct config *cfg, const char *scope)
{
    char *path = config_state_path(cfg);
    struct tools_state_service_options o = {
        .state = 1, /* also when programs have it off: the keys are still there */
        .per_principal = scope[0] != '\0',
    };
    config_state_store(cfg, path, &o.store);
    struct tools_state_service *s = tools_state_service_new(&o);
    free(path);
    return s;
}

/* The message of an error reply of the service ({"name","message","code"}). */
static int report_error(const struct buf *reply)
{
    cJSON *e = json_parse(reply->data ? reply->data : "null", reply->len);
    const cJSON *msg = cJSON_GetObjectItemCaseSensitive(e, "message");
    fprintf(stderr, "mcp-codemode: %s\n", cJSON_IsString(msg) ? msg->valuestring : "failed");
    cJSON_Delete(e);
    return 1;
}

/* Writes a string (internal form) to stdout as its own bytes. */
static void print_external(const char *s)
{
    struct buf b;
    buf_init(&b, 0);
    utf8_append_external(&b, s, strlen(s));
    fwrite(b.data ? b.data : "", 1, b.len, stdout);
    buf_free(&b);
}

/* A key as a line shows it: as it is, or as a JSON string when it holds a
 * character that would break the line (a control character, a quote first). */
static void print_key(const char *k)
{
    int plain = k[0] != '"';
    for (const unsigned char *p = (const unsigned char *) k; *p && plain; p++)
        plain = *p >= 0x20 && *p != 0x7f;
    if (plain) {
        print_external(k);
        return;
    }
    struct buf q;
    buf_init(&q, 0);
    json_append_string(&q, k, strlen(k));
    fwrite(q.data, 1, q.len, stdout);
    buf_free(&q);
}

static int list(struct tools_state_service *s, const struct cli *cli, const char *scope)
{
    char err[TOOLS_STATE_ERR_MAX];
    cJSON *entries = NULL;
    const char *prefix = cli->state.key ? cli->state.key : "";
    if (tools_state_list_entries(tools_state_service_store(s), scope, prefix, &entries, err) < 0) {
        fprintf(stderr, "mcp-codemode: %s\n", err);
        return 1;
    }
    if (cli->json) {
        char *t = json_print(entries);
        printf("%s\n", t);
        free(t);
    } else {
        const cJSON *e;
        cJSON_ArrayForEach(e, entries)
        {
            printf("%8.0f %10.0f  ", cJSON_GetObjectItemCaseSensitive(e, "version")->valuedouble,
                   cJSON_GetObjectItemCaseSensitive(e, "bytes")->valuedouble);
            print_key(cJSON_GetObjectItemCaseSensitive(e, "key")->valuestring);
            putchar('\n');
        }
        if (entries->child == NULL) {
            struct buf d;
            buf_init(&d, 0);
            describe_scope(&d, scope);
            fprintf(stderr, "mcp-codemode: no keys%s%s%s in %s\n", prefix[0] ? " starting with \"" : "",
                    prefix, prefix[0] ? "\"" : "", d.data);
            buf_free(&d);
        }
    }
    cJSON_Delete(entries);
    return 0;
}

static int no_such_key(const char *key, const char *scope)
{
    struct buf d;
    buf_init(&d, 0);
    buf_append_str(&d, "no key ");
    json_append_string(&d, key, strlen(key));
    buf_append_str(&d, " in ");
    describe_scope(&d, scope);
    fprintf(stderr, "mcp-codemode: %s (`state list` lists the keys)\n", d.data);
    buf_free(&d);
    return 1;
}

static int get(struct tools_state_service *s, const struct cli *cli, const char *scope,
               cJSON *args)
{
    struct buf reply;
    buf_init(&reply, 0);
    int rc = 0;
    if (!tools_state_service_call(s, "state", "get", scope, args, &reply)) {
        rc = report_error(&reply);
    } else {
        cJSON *r = json_parse(reply.data, reply.len);
        if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "found"))) {
            rc = no_such_key(cli->state.key, scope);
        } else if (cli->json) {
            cJSON_DeleteItemFromObjectCaseSensitive(r, "found");
            cJSON_AddItemToObject(r, "key", cJSON_CreateString(cli->state.key));
            char *t = json_print(r);
            printf("%s\n", t);
            free(t);
        } else {
            char *t = json_print(cJSON_GetObjectItemCaseSensitive(r, "value"));
            print_external(t);
            putchar('\n');
            free(t);
        }
        cJSON_Delete(r);
    }
    buf_free(&reply);
    return rc;
}

/* --if-version: a whole number >= 0 (0: the key must not exist). */
static int parse_if_version(const char *text, double *out)
{
    char *end;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || v < 0 || v != floor(v) || v > 9007199254740991.0)
        return -1;
    *out = v;
    return 0;
}

static int set(struct tools_state_service *s, const struct cli *cli, const char *scope,
               cJSON *args, const char *value)
{
    const char *source = strcmp(cli->state.value, "-") == 0 ? "stdin" : "the value";
    cJSON *v = json_parse(value, strlen(value));
    if (v == NULL) {
        fprintf(stderr,
                "mcp-codemode: state set: %s is not valid JSON (a string needs its quotes: "
                "'\"text\"')\n",
                source);
        return 2;
    }
    cJSON_AddItemToObject(args, "value", v);
    if (cli->state.if_version) {
        double n;
        if (parse_if_version(cli->state.if_version, &n) != 0) {
            fprintf(stderr, "mcp-codemode: --if-version takes a version number (an integer >= "
                            "0; 0: the key must not exist)\n");
            return 2;
        }
        cJSON_AddNumberToObject(args, "ifVersion", n);
    }
    struct buf reply;
    buf_init(&reply, 0);
    int rc = 0;
    if (!tools_state_service_call(s, "state", "set", scope, args, &reply)) {
        rc = report_error(&reply);
    } else if (cli->json) {
        printf("{\"key\":");
        char *k = json_print(cJSON_GetObjectItemCaseSensitive(args, "key"));
        printf("%s,\"version\":%s}\n", k, reply.data);
        free(k);
    } else {
        printf("version %s\n", reply.data);
    }
    buf_free(&reply);
    return rc;
}

static int delete_key(struct tools_state_service *s, const struct cli *cli, const char *scope,
                      cJSON *args)
{
    struct buf reply;
    buf_init(&reply, 0);
    int rc = 0;
    if (!tools_state_service_call(s, "state", "delete", scope, args, &reply))
        rc = report_error(&reply);
    else if (strcmp(reply.data, "true") != 0)
        rc = no_such_key(cli->state.key, scope);
    else
        printf(cli->json ? "true\n" : "deleted\n");
    buf_free(&reply);
    return rc;
}

int state_cmd_run(const struct config *cfg, const struct cli *cli, const char *value)
{
    const char *scope = scope_of(cfg, cli), *act = cli->state.action;
    struct tools_state_service *s = open_service(cfg, scope);
    if (strcmp(act, "set") != 0 && !tools_state_file_exists(tools_state_service_store(s))) {
        fprintf(stderr,
                "mcp-codemode: no state database at %s (codemode.state.path): no program has "
                "stored state there yet; check --config\n",
                tools_state_path(tools_state_service_store(s)));
        tools_state_service_free(s);
        return 1;
    }
    cJSON *args = cJSON_CreateObject();
    if (cli->state.key && strcmp(act, "list") != 0)
        cJSON_AddStringToObject(args, "key", cli->state.key);
    int rc;
    if (strcmp(act, "list") == 0)
        rc = list(s, cli, scope);
    else if (strcmp(act, "get") == 0)
        rc = get(s, cli, scope, args);
    else if (strcmp(act, "set") == 0)
        rc = set(s, cli, scope, args, value);
    else
        rc = delete_key(s, cli, scope, args);
    cJSON_Delete(args);
    tools_state_service_free(s);
    fflush(stdout);
    return rc;
}
