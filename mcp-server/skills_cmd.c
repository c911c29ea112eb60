/* `mcp-codemode skills save|list|delete`: the saved skills of the state
 * database, from the command line (the same checks as skills.save in a
 * program). Prints the outcome on stdout, errors on stderr. */
#include "mcp-server/skills_cmd.h"
#include "mcp-server/config/config.h"
#include "sandbox/lower/skill.h"
#include "tools/state/service.h"
#include "common/buf.h"
#include "common/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct tools_state_service *open_service(const struct config *cfg)
{
    char *path = config_state_path(cfg);
    struct tools_state_service_options o = {
        .skills = 1,
    };
    config_state_store(cfg, path, &o.store);
    struct tools_state_service *s = tools_state_service_new(&o);
    free(path);
    return s;
}

/* Prints the reply: the value on stdout (0), or the error's message (1). */
static int report(int ok, struct buf *b)
{
    cJSON *v = json_parse(b->data ? b->data : "null", b->len);
    const cJSON *msg = cJSON_GetObjectItemCaseSensitive(v, "message");
    if (ok) {
        char *t = cJSON_Print(v);
        printf("%s\n", t);
        free(t);
    } else {
        fprintf(stderr, "mcp-codemode: %s\n", cJSON_IsString(msg) ? msg->valuestring : "failed");
    }
    cJSON_Delete(v);
    return ok ? 0 : 1;
}

static cJSON *skill_object(const struct cli *cli, const char *code, const char *schema)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", cli->skill.name);
    cJSON_AddStringToObject(o, "description", cli->skill.description);
    cJSON_AddStringToObject(o, "code", code);
    if (schema) {
        cJSON *s = json_parse(schema, strlen(schema));
        if (s == NULL) {
            cJSON_Delete(o);
            return NULL;
        }
        cJSON_AddItemToObject(o, "inputSchema", s);
    }
    return o;
}

/* The checks skills.save makes in a program (tools/state/service.c), then
 * the syntax of the code, lowered as the worker lowers a skill
 * (sandbox/lower/skill.h): 1, or 0 with the problem on stderr. */
static int check_skill(const struct cli *cli, const cJSON *skill, const char *code)
{
    struct buf b;
    buf_init(&b, 0);
    int ok = tools_state_service_check("skills", "save", skill, &b);
    if (!ok)
        report(0, &b);
    buf_free(&b);
    if (!ok)
        return 0;
    struct buf out;
    struct lower_error err;
    buf_init(&out, 0);
    ok = sandbox_lower_skill(cli->skill.name, code, strlen(code), &out, &err) == 0;
    buf_free(&out);
    if (!ok)
        fprintf(stderr, "%s:%d:%d: SyntaxError: %s\n%s\nmcp-codemode: skill \"%s\" not saved\n",
                strcmp(cli->file, "-") == 0 ? "<stdin>" : cli->file, err.line, err.column,
                err.message, err.excerpt, cli->skill.name);
    return ok;
}

int skills_cmd_run(const struct config *cfg, const struct cli *cli, const char *code,
                   const char *schema)
{
    struct tools_state_service *s = open_service(cfg);
    struct buf b;
    buf_init(&b, 0);
    int ok, rc;
    if (strcmp(cli->skill.action, "save") == 0) {
        cJSON *skill = skill_object(cli, code, schema);
        if (skill == NULL) {
            fprintf(stderr, "mcp-codemode: %s: not valid JSON\n", cli->skill.schema_file);
            tools_state_service_free(s);
            return 2;
        }
        if (!check_skill(cli, skill, code)) {
            cJSON_Delete(skill);
            tools_state_service_free(s);
            return 1;
        }
        ok = tools_state_service_save(s, skill, NULL, &b); /* the CLI: the server's skill */
        cJSON_Delete(skill);
    } else {
        cJSON *args = cJSON_CreateObject();
        if (cli->skill.name)
            cJSON_AddStringToObject(args, "name", cli->skill.name);
        ok = tools_state_service_call(s, "skills", cli->skill.action, NULL, args, &b);
        cJSON_Delete(args);
    }
    rc = report(ok, &b);
    buf_free(&b);
    tools_state_service_free(s);
    return rc;
}
