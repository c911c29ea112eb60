/* The authority settings: codemode.policy (default, noApprover,
 * approvalTimeoutMs, rules), codemode.audit (path, arguments), and the
 * per-server "policy" object of an mcpServers entry. Patterns and decisions
 * are checked here so a typo is an error with its position, never a rule
 * that silently matches nothing. */
#include "mcp-server/config/internal.h"

#include "common/alloc.h"
#include "tools/policy/audit.h"
#include "tools/policy/policy.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#define DAY_MS 86400000

static const char *const policy_keys[] = {"default", "noApprover", "approvalTimeoutMs", "rules",
                                          NULL};
static const char *const audit_keys[] = {"path", "arguments", NULL};

static int read_decision(struct config_ctx *x, const cJSON *v, const struct config_kpath *p,
                         int allow_ask, enum tools_policy_decision *out)
{
    char *s;
    if (config__string(x, v, p, CONFIG_VARS_WARN, &s) < 0)
        return -1;
    int r = tools_policy_decision_parse(s, out);
    if (r < 0 || (!allow_ask && *out == TOOLS_POLICY_ASK)) {
        config__error(x, config__at(x, v, 0), p, "unknown decision \"%s\" (expected %s)", s,
                      allow_ask ? "allow, ask or deny" : "allow or deny");
        free(s);
        return -1;
    }
    free(s);
    return 0;
}

static const char *const rule_keys[] = {"decision", "scope", NULL};

/* A rule's value: "decision", or {"decision": "...", "scope": "crm:write"}
 * (without that OAuth scope in the caller's token, the decision is deny). */
static int read_rule(struct config_ctx *x, cJSON *e, const struct config_kpath *kp,
                     struct tools_policy_rule *rule)
{
    if (!cJSON_IsObject(e))
        return read_decision(x, e, kp, 1, &rule->decision);
    struct config_kpath dp = {kp, "decision", 0}, sp = {kp, "scope", 0};
    if (config__object(x, e, kp) < 0)
        return -1;
    config__unknown_keys(x, e, kp, rule_keys);
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(e, "decision");
    const cJSON *scope = cJSON_GetObjectItemCaseSensitive(e, "scope");
    if (d == NULL) {
        config__error(x, config__at(x, e, 0), kp,
                      "\"decision\" is required (allow, ask or deny), as in "
                      "{\"decision\": \"allow\", \"scope\": \"crm:write\"}");
        return -1;
    }
    if (read_decision(x, d, &dp, 1, &rule->decision) < 0)
        return -1;
    if (scope == NULL)
        return 0;
    if (config__string(x, scope, &sp, CONFIG_VARS_WARN, &rule->scope) < 0)
        return -1;
    if (!config__scope_ok(rule->scope)) {
        config__error(x, config__at(x, scope, 0), &sp,
                      "\"%s\" is not an OAuth scope (printable ASCII without spaces, quotes or "
                      "backslashes, such as \"crm:write\")",
                      rule->scope);
        return -1;
    }
    return 0;
}

/* Reads {"pattern": "decision" or {"decision", "scope"}, ...} into a rule
 * array (owned by the caller). */
static int read_rules(struct config_ctx *x, cJSON *v, const struct config_kpath *p,
                      int server_scoped, struct tools_policy_rule **out, size_t *nout)
{
    if (config__object(x, v, p) < 0)
        return -1;
    size_t n = (size_t) cJSON_GetArraySize(v), k = 0;
    struct tools_policy_rule *rules = xcalloc(n ? n : 1, sizeof *rules);
    for (const cJSON *e = v->child; e != NULL; e = e->next) {
        struct config_kpath kp = {p, e->string, 0};
        const char *why = tools_policy_pattern_problem(e->string, server_scoped);
        if (why != NULL) {
            config__error(x, config__at(x, e, 1), &kp, "malformed pattern: %s", why);
            goto fail;
        }
        rules[k].pattern = xstrdup(e->string);
        if (read_rule(x, (cJSON *) e, &kp, &rules[k++]) < 0)
            goto fail;
    }
    *out = rules;
    *nout = k;
    return 0;
fail:
    tools_policy_rules_free(rules, k);
    return -1;
}

int config__policy(struct config_ctx *x, cJSON *v, const struct config_kpath *p)
{
    struct tools_policy *pol = &x->c->policy;
    struct config_kpath dp = {p, "default", 0}, np = {p, "noApprover", 0},
                        tp = {p, "approvalTimeoutMs", 0}, rp = {p, "rules", 0};
    if (config__object(x, v, p) < 0)
        return -1;
    config__unknown_keys(x, v, p, policy_keys);
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(v, "default");
    const cJSON *na = cJSON_GetObjectItemCaseSensitive(v, "noApprover");
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(v, "approvalTimeoutMs");
    cJSON *rules = cJSON_GetObjectItemCaseSensitive(v, "rules");
    if (d && read_decision(x, d, &dp, 1, &pol->default_decision) < 0)
        return -1;
    if (na && read_decision(x, na, &np, 0, &pol->no_approver) < 0)
        return -1;
    if (t) {
        int64_t ms;
        if (config__int(x, t, &tp, 1, DAY_MS, &ms) < 0)
            return -1;
        pol->approval_timeout_ms = (uint64_t) ms;
    }
    if (rules) {
        struct tools_policy_rule *list;
        size_t n;
        if (read_rules(x, rules, &rp, 0, &list, &n) < 0)
            return -1;
        tools_policy_rules_free(pol->rules, pol->nrules);
        pol->rules = list;
        pol->nrules = n;
    }
    return 0;
}

int config__audit(struct config_ctx *x, cJSON *v, const struct config_kpath *p)
{
    struct config_kpath pp = {p, "path", 0}, ap = {p, "arguments", 0};
    if (config__object(x, v, p) < 0)
        return -1;
    config__unknown_keys(x, v, p, audit_keys);
    const cJSON *path = cJSON_GetObjectItemCaseSensitive(v, "path");
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(v, "arguments");
    if (path) {
        char *s;
        if (config__string(x, path, &pp, CONFIG_VARS_REQUIRED, &s) < 0)
            return -1;
        if (s[0] == '\0') {
            config__error(x, config__at(x, path, 0), &pp,
                          "empty path (remove \"audit\" to write no audit log)");
            free(s);
            return -1;
        }
        free(x->c->audit_path);
        x->c->audit_path = s;
    }
    if (args) {
        char *s;
        if (config__string(x, args, &ap, CONFIG_VARS_WARN, &s) < 0)
            return -1;
        enum tools_audit_arguments mode;
        if (tools_audit_arguments_parse(s, &mode) < 0) {
            config__error(x, config__at(x, args, 0), &ap,
                          "unknown value \"%s\" (expected full, hash or none)", s);
            free(s);
            return -1;
        }
        free(s);
        x->c->audit_arguments = (int) mode;
    }
    return 0;
}

int config__server_policy(struct config_ctx *x, cJSON *v, const struct config_kpath *p,
                          struct tools_server_config *s)
{
    return read_rules(x, v, p, 1, &s->policy, &s->npolicy);
}
