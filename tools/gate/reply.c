/* The answers the gate gives itself, before or instead of a downstream's:
 * delivered on the loop's next turn (never inside tools_exec_call), a JSON
 * value or error as the reply, a refusal that names its reason
 * (ToolPolicyError, ToolApprovalError), and the ToolArgumentError of
 * arguments that break the tool's inputSchema. */
#include "tools/gate/internal.h"
#include "tools/registry_internal.h"
#include "tools/catalog.h"
#include "tools/result_map.h"
#include "tools/schema/schema.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/json.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static void deliver(struct next_turn_item *it)
{
    struct tools_call *c = (struct tools_call *) ((char *) it - offsetof(struct tools_call, later));
    c->cb(c->ud, c->later_ok, c->later_json, c->later_len);
    tools__call_free(c);
}

cJSON *tools__call_args(const struct tools_call *c)
{
    return c->args_json ? json_parse(c->args_json, strlen(c->args_json)) : NULL;
}

void tools__answer_later(void *call, int ok, const char *json, size_t len)
{
    struct tools_call *c = call;
    c->later_ok = ok;
    c->later_json = xmalloc(len + 1);
    memcpy(c->later_json, json, len);
    c->later_json[len] = '\0';
    c->later_len = len;
    next_turn_push(tools__later(c->r), &c->later, deliver);
}

void tools__reply_text(tools_reply_cb *cb, void *ud, int ok, struct buf *b)
{
    cb(ud, ok, b->data ? b->data : "null", b->len ? b->len : 4);
}

void tools__reply_error(tools_reply_cb *cb, void *ud, const char *name, const char *msg,
                        const char *tool)
{
    struct buf b;
    buf_init(&b, 0);
    tools_result_error(name, msg, tool, &b);
    tools__reply_text(cb, ud, 0, &b);
    buf_free(&b);
}

void tools__reply_refusal(tools_reply_cb *cb, void *ud, const char *name, const char *msg,
                          const char *tool, const char *key, const char *value)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", name);
    cJSON_AddStringToObject(o, "message", msg);
    cJSON_AddStringToObject(o, "tool", tool);
    cJSON_AddStringToObject(o, key, value);
    char *text = json_print(o);
    cb(ud, 0, text, strlen(text));
    free(text);
    cJSON_Delete(o);
}

int tools__validate(const struct tools_catalog_tool *t, const cJSON *args, tools_reply_cb *cb,
                    void *ud)
{
    if (t->input == NULL)
        return 0;
    struct tools_schema_result res;
    cJSON *empty = args ? NULL : cJSON_CreateObject();
    int valid = tools_schema_validate(t->input, args ? args : empty, &res);
    cJSON_Delete(empty);
    if (!valid) {
        struct buf b;
        buf_init(&b, 0);
        tools_result_argument_error(t, &res, &b);
        tools__reply_text(cb, ud, 0, &b);
        buf_free(&b);
    }
    tools_schema_result_free(&res);
    return valid ? 0 : -1;
}
