/* The `codemode.declarations` block: how many tokens the tools' TypeScript
 * declarations may cost in the execute_code description (`budget`) and
 * which tools keep their docs longest when they do not all fit
 * (`preferred`), whether the results of tools without an outputSchema
 * type them (`learnResultTypes`), plus the older
 * `codemode.declarationsBudget` in bytes, kept as a deprecated alias
 * (bytes / 4, the token estimate). The user
 * documentation is docs/config.md. */
#include "mcp-server/config/internal.h"

#include "tools/declarations/declarations.h"
#include "tools/policy/policy.h"

#include <cjson/cJSON.h>
#include <stdlib.h>

#define BUDGET_MAX_TOKENS (4 * 1024 * 1024)
#define BUDGET_MAX_BYTES  (16 * 1024 * 1024)

static const char *const declarations_keys[] = {"budget", "preferred", "learnResultTypes", NULL};

/* An item of codemode.declarations.preferred (config__checked_list). */
static int check_pattern(struct config_ctx *x, const cJSON *e, const struct config_kpath *p,
                         const char *pattern)
{
    const char *why = tools_policy_pattern_problem(pattern, 0);
    if (why == NULL)
        return 0;
    config__error(x, config__at(x, e, 0), p, "%s", why);
    return -1;
}

int config__declarations_budget_bytes(struct config_ctx *x, const cJSON *v,
                                      const struct config_kpath *p)
{
    int64_t n;
    if (config__int(x, v, p, 0, BUDGET_MAX_BYTES, &n) < 0)
        return -1;
    x->c->limits.declarations_budget = tools_declarations_tokens((size_t) n);
    return 0;
}

int config__declarations_budget(struct config_ctx *x, const cJSON *v,
                                const struct config_kpath *p)
{
    int64_t n;
    if (config__int(x, v, p, 0, BUDGET_MAX_TOKENS, &n) < 0)
        return -1;
    x->c->limits.declarations_budget = (uint64_t) n;
    return 0;
}

int config__declarations(struct config_ctx *x, cJSON *codemode, const struct config_kpath *p)
{
    struct config_kpath dp = {p, "declarations", 0}, op = {p, "declarationsBudget", 0};
    struct config_kpath bp = {&dp, "budget", 0}, pp = {&dp, "preferred", 0};
    struct config_kpath lp = {&dp, "learnResultTypes", 0};
    const cJSON *old = cJSON_GetObjectItemCaseSensitive(codemode, "declarationsBudget");
    cJSON *block = cJSON_GetObjectItemCaseSensitive(codemode, "declarations");
    if (old != NULL && config__declarations_budget_bytes(x, old, &op) < 0)
        return -1;
    if (block == NULL)
        return 0;
    if (config__object(x, block, &dp) < 0)
        return -1;
    config__unknown_keys(x, block, &dp, declarations_keys);
    const cJSON *budget = cJSON_GetObjectItemCaseSensitive(block, "budget");
    const cJSON *preferred = cJSON_GetObjectItemCaseSensitive(block, "preferred");
    const cJSON *learn = cJSON_GetObjectItemCaseSensitive(block, "learnResultTypes");
    if (budget != NULL && config__declarations_budget(x, budget, &bp) < 0) /* wins over the alias */
        return -1;
    if (learn != NULL && config__bool(x, learn, &lp, &x->c->learn_result_types) < 0)
        return -1;
    return preferred != NULL ? config__checked_list(x, preferred, &pp, check_pattern,
                                                    &x->c->declarations_preferred)
                             : 0;
}
