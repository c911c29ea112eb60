/* Tool policy: pattern checks and matching, the specificity order that picks
 * one rule among those that match, annotation defaults, and grants. The
 * order (docs/policy.md): a rule naming the server beats one for any server
 * ("*.x", "*"); among those, an exact tool name beats a glob; among globs,
 * more literal characters win; on a tie the stricter decision wins
 * (deny > ask > allow), so the order of keys in the file never matters. */
#include "tools/policy/policy.h"
#include "tools/server_config.h"
#include "common/alloc.h"
#include "common/buf.h"

#include <stdlib.h>
#include <string.h>

#define APPROVAL_TIMEOUT_MS_DEFAULT 600000

void tools_policy_init(struct tools_policy *p)
{
    memset(p, 0, sizeof *p);
    p->default_decision = TOOLS_POLICY_ALLOW;
    p->no_approver = TOOLS_POLICY_DENY;
    p->approval_timeout_ms = APPROVAL_TIMEOUT_MS_DEFAULT;
}

void tools_policy_rules_free(struct tools_policy_rule *rules, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(rules[i].pattern);
        free(rules[i].scope);
    }
    free(rules);
}

void tools_policy_free(struct tools_policy *p)
{
    tools_policy_rules_free(p->rules, p->nrules);
    p->rules = NULL;
    p->nrules = 0;
}

static const char *const decision_names[] = {"unset", "allow", "ask", "deny"};

int tools_policy_decision_parse(const char *s, enum tools_policy_decision *out)
{
    for (int d = TOOLS_POLICY_ALLOW; d <= TOOLS_POLICY_DENY; d++) {
        if (strcmp(s, decision_names[d]) == 0) {
            *out = (enum tools_policy_decision) d;
            return 0;
        }
    }
    return -1;
}

const char *tools_policy_decision_name(enum tools_policy_decision d)
{
    return (unsigned) d <= TOOLS_POLICY_DENY ? decision_names[d] : "unset";
}

/* --- patterns ------------------------------------------------------------------ */

static const char *glob_problem(const char *g)
{
    if (*g == '\0')
        return "the tool part is empty (write \"*\" for every tool)";
    for (const unsigned char *q = (const unsigned char *) g; *q; q++)
        if (*q < 0x20 || *q == 0x7f)
            return "contains a control character";
    return NULL;
}

const char *tools_policy_pattern_problem(const char *pattern, int server_scoped)
{
    size_t n = strlen(pattern);
    if (n == 0)
        return "empty pattern (expected \"server.tool\", \"server.*\" or \"*\")";
    if (pattern[0] == ' ' || pattern[n - 1] == ' ')
        return "leading or trailing space";
    if (server_scoped || strcmp(pattern, "*") == 0)
        return glob_problem(pattern);
    const char *dot = strchr(pattern, '.');
    if (dot == NULL)
        return "no server part (expected \"server.tool\", \"server.*\" or \"*\")";
    if (dot == pattern)
        return "the server part is empty (write \"*.tool\" for any server)";
    const char *star = memchr(pattern, '*', (size_t) (dot - pattern));
    if (star && dot - pattern != 1)
        return "a server is named exactly or with \"*\" alone, not with a partial glob";
    for (const char *q = pattern; q < dot; q++)
        if ((unsigned char) *q < 0x20)
            return "contains a control character";
    return glob_problem(dot + 1);
}

int tools_policy_glob(const char *g, const char *s)
{
    const char *star = NULL, *mark = NULL;
    while (*s) {
        if (*g == '*') {
            star = g++;
            mark = s;
        } else if (*g == *s) {
            g++;
            s++;
        } else if (star) {
            g = star + 1;
            s = ++mark;
        } else {
            return 0;
        }
    }
    while (*g == '*')
        g++;
    return *g == '\0';
}

static int tool_matches(const char *glob, const struct tools_policy_names *n)
{
    return tools_policy_glob(glob, n->tool) || (n->tool_id && tools_policy_glob(glob, n->tool_id));
}

static int server_matches(const char *s, size_t len, const struct tools_policy_names *n)
{
    if (len == 1 && s[0] == '*')
        return 1;
    if (strlen(n->server) == len && memcmp(n->server, s, len) == 0)
        return 1;
    return n->server_id && strlen(n->server_id) == len && memcmp(n->server_id, s, len) == 0;
}

int tools_policy_pattern_matches(const char *pattern, const struct tools_policy_names *n)
{
    if (strcmp(pattern, "*") == 0)
        return 1;
    const char *dot = strchr(pattern, '.');
    if (dot == NULL)
        return 0;
    return server_matches(pattern, (size_t) (dot - pattern), n) && tool_matches(dot + 1, n);
}

/* --- decisions ------------------------------------------------------------------- */

/* Specificity: tier (3 exact server and tool, 2 exact server and a glob,
 * 1 any server, 0 "*"), then literal characters of the tool part. */
struct rank {
    int tier;
    size_t literal;
};

static struct rank rank_glob(const char *glob, int named_server)
{
    struct rank r = {0, 0};
    int wild = 0;
    for (const char *q = glob; *q; q++) {
        if (*q == '*')
            wild = 1;
        else
            r.literal++;
    }
    r.tier = named_server ? (wild ? 2 : 3) : 1;
    return r;
}

static int better(struct rank a, enum tools_policy_decision da, struct rank b,
                  enum tools_policy_decision db)
{
    if (a.tier != b.tier)
        return a.tier > b.tier;
    if (a.literal != b.literal)
        return a.literal > b.literal;
    return da > db; /* deny > ask > allow */
}

struct pick {
    struct rank rank;
    enum tools_policy_decision decision;
    const char *pattern, *server; /* server: per-server rule of this server */
    const char *scope;            /* the rule's required scope, or NULL */
};

static void consider(struct pick *best, struct rank r, const struct tools_policy_rule *rule,
                     const char *server)
{
    enum tools_policy_decision d = rule->decision;
    if (best->decision == TOOLS_POLICY_UNSET || better(r, d, best->rank, best->decision)) {
        best->rank = r;
        best->decision = d;
        best->pattern = rule->pattern;
        best->server = server;
        best->scope = rule->scope;
    }
}

static void global_rules(struct pick *best, const struct tools_policy *p,
                         const struct tools_policy_names *n)
{
    for (size_t i = 0; p && i < p->nrules; i++) {
        const char *pat = p->rules[i].pattern;
        if (!tools_policy_pattern_matches(pat, n))
            continue;
        const char *dot = strchr(pat, '.');
        struct rank r = {0, 0};
        if (dot)
            r = rank_glob(dot + 1, !(dot - pat == 1 && pat[0] == '*'));
        consider(best, r, &p->rules[i], NULL);
    }
}

static void server_rules(struct pick *best, const struct tools_server_config *srv,
                         const struct tools_policy_names *n)
{
    for (size_t i = 0; srv && i < srv->npolicy; i++) {
        const char *glob = srv->policy[i].pattern;
        if (tool_matches(glob, n))
            consider(best, rank_glob(glob, 1), &srv->policy[i], srv->name);
    }
}

static int hint(const cJSON *tool, const char *key)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(tool, "annotations");
    return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(a, key));
}

int tools_policy_read_only(const cJSON *tool)
{
    return hint(tool, "readOnlyHint");
}

static char *describe_pick(const struct pick *b)
{
    struct buf t;
    buf_init(&t, 0);
    if (b->server)
        buf_printf(&t, "rule \"%s\" of mcpServers.%s.policy", b->pattern, b->server);
    else
        buf_printf(&t, "rule \"%s\"", b->pattern);
    return buf_steal(&t);
}

enum tools_policy_decision tools_policy_decide(const struct tools_policy *p,
                                               const struct tools_server_config *srv,
                                               const struct tools_policy_names *n,
                                               const cJSON *tool, char **source)
{
    struct pick best;
    memset(&best, 0, sizeof best);
    global_rules(&best, p, n);
    server_rules(&best, srv, n);
    const char *why;
    if (best.decision != TOOLS_POLICY_UNSET) {
        if (source)
            *source = describe_pick(&best);
        return best.decision;
    }
    if (hint(tool, "readOnlyHint")) {
        best.decision = TOOLS_POLICY_ALLOW;
        why = "annotation readOnlyHint";
    } else if (hint(tool, "destructiveHint")) {
        best.decision = TOOLS_POLICY_ASK;
        why = "annotation destructiveHint";
    } else {
        best.decision = p ? p->default_decision : TOOLS_POLICY_ALLOW;
        why = "codemode.policy.default";
    }
    if (source)
        *source = xstrdup(why);
    return best.decision;
}

const char *tools_policy_scope(const struct tools_policy *p, const struct tools_server_config *srv,
                               const struct tools_policy_names *n)
{
    struct pick best;
    memset(&best, 0, sizeof best);
    global_rules(&best, p, n);
    server_rules(&best, srv, n);
    return best.decision != TOOLS_POLICY_UNSET ? best.scope : NULL;
}

int tools_policy_has_scope(char *const *scopes, const char *scope)
{
    for (; scopes && *scopes; scopes++)
        if (strcmp(*scopes, scope) == 0)
            return 1;
    return 0;
}

/* d, decided by a rule that requires `scope` (NULL: none), for a caller
 * holding `scopes`: deny when the caller lacks it (*source then says so). */
static enum tools_policy_decision scoped(enum tools_policy_decision d, const char *scope,
                                         char *const *scopes, char **source)
{
    if (scope == NULL || d == TOOLS_POLICY_DENY || tools_policy_has_scope(scopes, scope))
        return d;
    if (source) {
        struct buf b;
        buf_init(&b, 0);
        buf_printf(&b, "%s, which needs scope \"%s\"", *source, scope);
        free(*source);
        *source = buf_steal(&b);
    }
    return TOOLS_POLICY_DENY;
}

enum tools_policy_decision tools_policy_decide_scoped(const struct tools_policy *p,
                                                      const struct tools_server_config *srv,
                                                      const struct tools_policy_names *n,
                                                      const cJSON *tool, char *const *scopes,
                                                      char **source)
{
    enum tools_policy_decision d = tools_policy_decide(p, srv, n, tool, source);
    return scoped(d, tools_policy_scope(p, srv, n), scopes, source);
}

enum tools_policy_decision tools_policy_rules_decide(const struct tools_policy *p,
                                                     const struct tools_server_config *srv,
                                                     const struct tools_policy_names *n,
                                                     char *const *scopes, char **source)
{
    struct pick best;
    memset(&best, 0, sizeof best);
    global_rules(&best, p, n);
    server_rules(&best, srv, n);
    if (best.decision == TOOLS_POLICY_UNSET)
        return TOOLS_POLICY_UNSET;
    if (source)
        *source = describe_pick(&best);
    return scoped(best.decision, best.scope, scopes, source);
}

/* s as a JSON string, quotes included. */
static void quoted(struct buf *b, const char *s)
{
    cJSON *v = cJSON_CreateString(s);
    char *text = v ? cJSON_PrintUnformatted(v) : NULL;
    buf_printf(b, "%s", text ? text : "\"\"");
    cJSON_free(text);
    cJSON_Delete(v);
}

char *tools_policy_allow_advice(const struct tools_policy *p, const struct tools_server_config *srv,
                                const struct tools_policy_names *n, const cJSON *tool)
{
    struct buf key, out;
    buf_init(&key, 0);
    buf_init(&out, 0);
    int per_server = strchr(n->server, '.') != NULL; /* "a.b.tool" would name server "a" */
    if (!per_server)
        buf_printf(&key, "%s.", n->server);
    buf_printf(&key, "%s", n->tool);
    struct tools_policy_rule extra = {key.data, TOOLS_POLICY_ALLOW, NULL};
    struct tools_policy pol;
    struct tools_server_config sc;
    struct tools_policy_rule *rules;
    if (p)
        pol = *p;
    else
        tools_policy_init(&pol);
    if (srv)
        sc = *srv;
    else
        memset(&sc, 0, sizeof sc);
    sc.name = (char *) n->server;
    if (per_server) {
        rules = xcalloc(sc.npolicy + 1, sizeof *rules);
        if (sc.npolicy)
            memcpy(rules, sc.policy, sc.npolicy * sizeof *rules);
        rules[sc.npolicy] = extra;
        sc.policy = rules;
        sc.npolicy++;
    } else {
        rules = xcalloc(pol.nrules + 1, sizeof *rules);
        if (pol.nrules)
            memcpy(rules, pol.rules, pol.nrules * sizeof *rules);
        rules[pol.nrules] = extra;
        pol.rules = rules;
        pol.nrules++;
    }
    char *source = NULL;
    if (tools_policy_decide(&pol, &sc, n, tool, NULL) == TOOLS_POLICY_ALLOW) {
        buf_printf(&out, "add ");
        quoted(&out, key.data);
        buf_printf(&out, ": \"allow\" to ");
        if (per_server) {
            buf_printf(&out, "mcpServers[");
            quoted(&out, n->server);
            buf_printf(&out, "].policy");
        } else {
            buf_printf(&out, "codemode.policy.rules");
        }
    } else { /* an equally specific rule asks: it must change */
        tools_policy_decide(p, srv, n, tool, &source);
        buf_printf(&out, "change %s to \"allow\"", source);
    }
    free(source);
    free(rules);
    buf_free(&key);
    return buf_steal(&out);
}

int tools_policy_granted(char *const *grant, const struct tools_policy_names *n)
{
    for (; grant && *grant; grant++)
        if (tools_policy_pattern_matches(*grant, n))
            return 1;
    return 0;
}
