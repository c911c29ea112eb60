/* Unit tests of tools/gate/: the order of the gate's decisions, for a
 * downstream tool and for the built-in services alike: name, deny, grant,
 * arguments, dry run, ask, then send (or do). Each case breaks two
 * neighbouring steps at once, so the answer names the step that must come
 * first: swapping any two steps changes one of the answers. No answer comes
 * inside the call that asked (each on a later loop turn). The downstream is
 * tests/fixtures/servers/annotated.mjs, which logs every call it receives,
 * and for resources and prompts tests/fixtures/servers/library.mjs, which
 * logs every request; the approver is a fake that records whether it was
 * asked. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tools/gate/gate.h"
#include "tools/policy/policy.h"
#include "tools/server_config.h"
#include "tools/state/service.h"
#include "common/json.h"
#include "common/next_turn.h"
#include "support/loop_wait.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FIXTURE "tests/fixtures/servers/annotated.mjs"
#define LIBRARY "tests/fixtures/servers/library.mjs" /* resources and prompts */

static uv_loop_t loop;
static char dir[64], log_path[128], lib_log_path[128], db_path[128];
static const char *counted_log = log_path; /* whose received calls expect() counts */
static char *server_argv[4], *lib_argv[6];
static struct tools_server_config servers[2];
static struct tools_policy policy;
static struct tools_state_service *state;
static struct tools_registry *registry;

/* --- the fake approver ----------------------------------------------------------------- */

static struct {
    enum tools_approval_answer answer;
    int asked;
    struct next_turn queue;
    struct next_turn_item pending; /* one question at a time */
    tools_approval_done *done;
    void *done_ud;
} approver_state;

static void fake_answer(struct next_turn_item *it)
{
    (void) it;
    approver_state.done(approver_state.done_ud, approver_state.answer, NULL);
}

/* Answers on the next turn, as the approver's contract says. */
static void *fake_ask(void *self, const struct tools_approval_request *q, tools_approval_done *done,
                      void *ud)
{
    (void) self;
    (void) q;
    approver_state.asked++;
    approver_state.done = done;
    approver_state.done_ud = ud;
    next_turn_push(&approver_state.queue, &approver_state.pending, fake_answer);
    return &approver_state.pending;
}

static void fake_cancel(void *self, void *handle)
{
    (void) self;
    next_turn_cancel(&approver_state.queue, handle);
}

static const struct tools_approver approver = {fake_ask, fake_cancel, NULL};

/* --- replies --------------------------------------------------------------------------- */

static struct {
    int done, ok;
    cJSON *value;
} reply;

static void on_reply(void *ud, int ok, const char *json, size_t len)
{
    (void) ud;
    reply.done = 1;
    reply.ok = ok;
    reply.value = json_parse(json, len);
}

static int replied(void *arg)
{
    (void) arg;
    return reply.done;
}

static int settled(void *arg)
{
    (void) arg;
    return tools_registry_settled(registry) && tools_registry_all_ready(registry);
}

/* What an answer says: "planned" (recorded by the dry run), "ok", or the
 * error's name with its decision or reason ("ToolPolicyError deny"). */
static void describe_reply(const struct tools_exec *x, char *out, size_t size)
{
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(reply.value, "name");
    const cJSON *why = cJSON_GetObjectItemCaseSensitive(reply.value, "decision");
    if (why == NULL)
        why = cJSON_GetObjectItemCaseSensitive(reply.value, "reason");
    if (reply.ok && cJSON_GetArraySize(tools_exec_planned(x)) > 0)
        snprintf(out, size, "planned");
    else if (reply.ok)
        snprintf(out, size, "ok");
    else
        snprintf(out, size, "%s%s%s", cJSON_IsString(name) ? name->valuestring : "?",
                 cJSON_IsString(why) ? " " : "", cJSON_IsString(why) ? why->valuestring : "");
}

/* Lines the downstream has logged (calls it received). */
static int calls_received(void)
{
    FILE *f = fopen(counted_log, "r");
    int n = 0, c;
    while (f && (c = fgetc(f)) != EOF)
        n += c == '\n';
    if (f)
        fclose(f);
    return n;
}

/* One host call in an execution with the grant `allow` (NULL: none) and
 * dry run; checks what it answered, whether a person was asked and how
 * many calls reached the downstream. */
static void expect(const char *op, const char *name, const char *args, char *const *allow,
                   int dry_run, enum tools_approval_answer answer, const char *want, int want_asked,
                   int want_received)
{
    struct tools_exec_options o = {.allow = allow,
                                   .dry_run = dry_run,
                                   .execution_id = "e",
                                   .approver = &approver,
                                   .principal = "p"};
    struct tools_exec *x = tools_exec_new(registry, &o);
    cJSON *a = args ? json_parse(args, strlen(args)) : NULL;
    reply.done = 0;
    approver_state.answer = answer;
    approver_state.asked = 0;
    int before = calls_received();
    assert_non_null(tools_exec_call(x, op, name, a, on_reply, NULL));
    assert_false(reply.done); /* never inside the call */
    assert_true(loop_run_while_not(&loop, replied, NULL, 10000));
    char got[200];
    describe_reply(x, got, sizeof got);
    if (strcmp(got, want) != 0 || approver_state.asked != want_asked)
        fail_msg("%s %s %s: answered \"%s\" (asked %d), wanted \"%s\" (asked %d)", op, name,
                 args ? args : "", got, approver_state.asked, want, want_asked);
    usleep(100 * 1000); /* a call that was sent has reached the fixture's log by now */
    assert_int_equal(calls_received() - before, want_received);
    cJSON_Delete(reply.value);
    cJSON_Delete(a);
    tools_exec_free(x);
}

/* --- fixture ------------------------------------------------------------------------------ */

static void add_rule(const char *pattern, enum tools_policy_decision d)
{
    policy.rules = realloc(policy.rules, (policy.nrules + 1) * sizeof *policy.rules);
    policy.rules[policy.nrules++] =
        (struct tools_policy_rule){.pattern = strdup(pattern), .decision = d};
}

static int setup(void **st)
{
    (void) st;
    snprintf(dir, sizeof dir, "/tmp/test_gate_XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(log_path, sizeof log_path, "%s/calls.jsonl", dir);
    snprintf(db_path, sizeof db_path, "%s/state.db", dir);
    uv_loop_init(&loop);
    next_turn_init(&loop, &approver_state.queue);
    tools_policy_init(&policy);
    add_rule("crm.no*", TOOLS_POLICY_DENY);
    add_rule("crm.send_note", TOOLS_POLICY_DENY);
    add_rule("crm.update_item", TOOLS_POLICY_ASK);
    add_rule("state.fr*", TOOLS_POLICY_DENY);
    add_rule("state.delete", TOOLS_POLICY_DENY);
    add_rule("skills.save", TOOLS_POLICY_ASK);
    add_rule("crm.prompts/*", TOOLS_POLICY_DENY);
    add_rule("lib.prompts/get", TOOLS_POLICY_DENY);
    add_rule("lib.resources/read", TOOLS_POLICY_ASK);
    snprintf(lib_log_path, sizeof lib_log_path, "%s/lib.jsonl", dir);
    counted_log = log_path;
    server_argv[0] = FIXTURE;
    server_argv[1] = "--log";
    server_argv[2] = log_path;
    server_argv[3] = NULL;
    servers[0] = (struct tools_server_config){
        .name = "crm", .transport = TOOLS_TRANSPORT_STDIO, .command = "node", .args = server_argv};
    lib_argv[0] = LIBRARY;
    lib_argv[1] = "--name";
    lib_argv[2] = "lib";
    lib_argv[3] = "--log";
    lib_argv[4] = lib_log_path;
    lib_argv[5] = NULL;
    servers[1] = (struct tools_server_config){
        .name = "lib", .transport = TOOLS_TRANSPORT_STDIO, .command = "node", .args = lib_argv};
    struct tools_state_service_options so = {
        .state = 1, .skills = 1, .per_principal = 1, .skills_per_principal = 1,
        .store = {db_path, 0, 0, 100}};
    state = tools_state_service_new(&so);
    struct tools_registry_options ro = {
        .servers = servers, .nservers = 2, .policy = &policy, .state = state};
    registry = tools_registry_new(&loop, &ro);
    assert_true(loop_run_while_not(&loop, settled, NULL, 20000));
    return 0;
}

static int teardown(void **st)
{
    (void) st;
    loop_wait_abort();
    tools_registry_free(registry);
    next_turn_close(&approver_state.queue, NULL);
    while (uv_run(&loop, UV_RUN_DEFAULT))
        ;
    assert_int_equal(uv_loop_close(&loop), 0);
    tools_state_service_free(state);
    tools_policy_free(&policy);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    return 0;
}

/* --- the order ---------------------------------------------------------------------------- */

static char *only_search[] = {"crm.search_items", NULL};
static char *only_crm[] = {"crm.*", NULL};

static void test_tool_order(void **st)
{
    (void) st;
    const enum tools_approval_answer yes = TOOLS_APPROVAL_ONCE, no = TOOLS_APPROVAL_DENY;
    /* name before deny: an unknown tool that a deny rule would match */
    expect("tool", "crm.nope", "{}", NULL, 0, yes, "Error", 0, 0);
    /* deny before grant */
    expect("tool", "crm.send_note", "{\"to\":\"x\"}", only_search, 0, yes, "ToolPolicyError deny",
           0, 0);
    /* grant before arguments (update_item requires id) */
    expect("tool", "crm.update_item", "{}", only_search, 0, yes, "ToolPolicyError not_granted", 0,
           0);
    /* arguments before the dry run */
    expect("tool", "crm.update_item", "{}", NULL, 1, yes, "ToolArgumentError", 0, 0);
    /* the dry run before asking */
    expect("tool", "crm.update_item", "{\"id\":\"u\"}", NULL, 1, yes, "planned", 0, 0);
    /* asking before sending */
    expect("tool", "crm.update_item", "{\"id\":\"u\"}", NULL, 0, no, "ToolApprovalError denied", 1,
           0);
    /* then it is sent */
    expect("tool", "crm.update_item", "{\"id\":\"u\"}", NULL, 0, yes, "ok", 1, 1);
    expect("tool", "crm.search_items", "{}", only_search, 0, no, "ok", 0, 1);
}

/* The skills the execution's principal sees. */
static int skills_seen(void)
{
    cJSON *seen = tools_state_service_skills(state, "p");
    int n = cJSON_GetArraySize(seen);
    cJSON_Delete(seen);
    return n;
}

static void test_builtin_order(void **st)
{
    (void) st;
    const enum tools_approval_answer yes = TOOLS_APPROVAL_ONCE, no = TOOLS_APPROVAL_DENY;
    static const char skill[] = "{\"name\":\"s\",\"description\":\"d\",\"code\":\"return 1\"}";
    /* name before deny: an operation there is not, that a deny rule would match */
    expect("state", "frob", "{\"key\":\"k\"}", NULL, 0, yes, "Error", 0, 0);
    /* deny before grant */
    expect("state", "delete", "{\"key\":\"k\"}", only_crm, 0, yes, "ToolPolicyError deny", 0, 0);
    /* grant before arguments (set needs a key) */
    expect("state", "set", "{}", only_crm, 0, yes, "ToolPolicyError not_granted", 0, 0);
    /* arguments before the dry run */
    expect("state", "set", "{}", NULL, 1, yes, "StateError", 0, 0);
    expect("skills", "save", "{\"name\":\"s\"}", NULL, 1, yes, "StateError", 0, 0);
    /* the dry run before asking: recorded, not done */
    expect("skills", "save", skill, NULL, 1, yes, "planned", 0, 0);
    assert_int_equal(skills_seen(), 0);
    /* asking before doing */
    expect("skills", "save", skill, NULL, 0, no, "ToolApprovalError denied", 1, 0);
    assert_int_equal(skills_seen(), 0);
    /* then it is done */
    expect("skills", "save", skill, NULL, 0, yes, "ok", 1, 0);
    assert_int_equal(skills_seen(), 1);
    expect("state", "set", "{\"key\":\"k\",\"value\":1}", only_crm, 0, yes,
           "ToolPolicyError not_granted", 0, 0);
    expect("state", "set", "{\"key\":\"k\",\"value\":1}", NULL, 0, yes, "ok", 0, 0);
}

/* resources.* and prompts.*: the operation, what names the call (its
 * server, a read's uri), the server (one that offers the capability), then
 * deny, grant, the other arguments, the dry run (read-only: sent when
 * allowed), ask, then the request. */
static void test_resource_order(void **st)
{
    (void) st;
    const enum tools_approval_answer yes = TOOLS_APPROVAL_ONCE, no = TOOLS_APPROVAL_DENY;
    static const char read[] = "{\"server\":\"lib\",\"uri\":\"lib://doc/1\"}";
    counted_log = lib_log_path;
    /* the operation before its naming */
    expect("prompts", "frob", "{\"server\":7}", NULL, 0, yes, "Error", 0, 0);
    /* naming before the server */
    expect("prompts", "get", "{\"server\":7,\"name\":\"greet\"}", NULL, 0, yes, "TypeError",
           0, 0);
    /* the server (crm offers no prompts) before deny (a rule denies its prompts) */
    expect("prompts", "get", "{\"server\":\"crm\",\"name\":\"greet\"}", NULL, 0, yes,
           "ToolError", 0, 0);
    /* deny before grant */
    expect("prompts", "get", "{\"server\":\"lib\",\"name\":\"greet\"}", only_crm, 0, yes,
           "ToolPolicyError deny", 0, 0);
    /* grant before the other arguments */
    expect("resources", "list", "{\"server\":\"lib\",\"cursor\":7}", only_crm, 0, yes,
           "ToolPolicyError not_granted", 0, 0);
    /* arguments before the dry run */
    expect("resources", "read", "{\"server\":\"lib\",\"uri\":\"lib://doc/1\",\"x\":1}", NULL,
           1, yes, "TypeError", 0, 0);
    /* the dry run before asking */
    expect("resources", "read", read, NULL, 1, yes, "planned", 0, 0);
    /* asking before sending */
    expect("resources", "read", read, NULL, 0, no, "ToolApprovalError denied", 1, 0);
    /* then it is sent */
    expect("resources", "read", read, NULL, 0, yes, "ok", 1, 1);
    /* an allowed read-only call is sent in a dry run; one request for one page */
    expect("resources", "list", "{\"server\":\"lib\",\"cursor\":\"p20\"}", NULL, 1, yes, "ok",
           0, 1);
    /* every page without a cursor: three requests, one answer */
    expect("resources", "list", "{\"server\":\"lib\"}", NULL, 0, yes, "ok", 0, 3);
    counted_log = log_path;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_tool_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_builtin_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_resource_order, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
