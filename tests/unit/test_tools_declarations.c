/* Unit tests for tools/declarations/: exact TypeScript for small schemas,
 * $ref cycles, escaping, layout, ordering, errors, summaries, the index,
 * hostile inputs, and the saved tool lists of the reference servers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/alloc.h"
#include "common/buf.h"
#include "tools/declarations/declarations.h"
#include "tools/names.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static cJSON *parse(const char *text)
{
    cJSON *j = cJSON_Parse(text);
    if (j == NULL)
        fail_msg("bad JSON in test: %s", text);
    return j;
}

/* Declarations of one tool "t" on server "s" (tools_declarations_server). */
static char *decl(const char *in, const char *out, const char *description)
{
    cJSON *i = in ? parse(in) : NULL, *o = out ? parse(out) : NULL;
    struct tools_decl_tool t = {.server = "s",
                                .server_id = "s",
                                .name = "t",
                                .id = "t",
                                .description = description,
                                .input_schema = i,
                                .output_schema = o};
    struct buf b;
    buf_init(&b, 0);
    assert_int_equal(tools_declarations_server(&t, 1, "s", &b), 0);
    cJSON_Delete(i);
    cJSON_Delete(o);
    return buf_steal(&b);
}

#define HEAD "declare const tools: {\n  s: {\n"
#define TAIL "  };\n};\n"

/* The tool's lines alone: what lies between HEAD and TAIL. */
static void expect_tool(const char *in, const char *out, const char *want)
{
    char *got = decl(in, out, NULL);
    size_t hl = strlen(HEAD), tl = strlen(TAIL), gl = strlen(got);
    if (gl < hl + tl || strncmp(got, HEAD, hl) || strcmp(got + gl - tl, TAIL))
        fail_msg("unexpected frame:\n%s", got);
    got[gl - tl] = '\0';
    if (strcmp(got + hl, want) != 0)
        fail_msg("got:\n%s\nwant:\n%s", got + hl, want);
    free(got);
}

static void expect_args(const char *in, const char *want_args)
{
    char want[4096];
    snprintf(want, sizeof want, "    t(%s): Promise<unknown>;\n", want_args);
    expect_tool(in, NULL, want);
}

static void expect_full(const char *in, const char *out, const char *description, const char *want)
{
    char *got = decl(in, out, description);
    if (strcmp(got, want) != 0)
        fail_msg("got:\n%s\nwant:\n%s", got, want);
    free(got);
}

/* --- objects -------------------------------------------------------------- */

static void test_object_required_optional(void **state)
{
    (void) state;
    expect_args("{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"},"
                "\"b\":{\"type\":\"integer\"}},\"required\":[\"a\"]}",
                "args: { a: string; b?: number }");
    /* nothing required: args optional */
    expect_args("{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"number\"}}}",
                "args?: { n?: number }");
    expect_args("{\"type\":\"object\",\"properties\":{}}", "args?: {}");
    expect_args(NULL, "args?: { [key: string]: unknown }");
    expect_args("{\"type\":\"object\"}", "args?: { [key: string]: unknown }");
    /* required names missing from properties are still required */
    expect_args("{\"type\":\"object\",\"required\":[\"x\",\"x\"]}", "args: { x: unknown }");
}

static void test_object_additional_properties(void **state)
{
    (void) state;
    expect_args("{\"properties\":{\"m\":{\"additionalProperties\":{\"type\":\"number\"}}}}",
                "args?: { m?: { [key: string]: number } }");
    expect_args("{\"properties\":{\"m\":{\"properties\":{\"a\":{\"type\":\"string\"}},"
                "\"additionalProperties\":{\"type\":\"number\"}}}}",
                "args?: { m?: { a?: string; [key: string]: unknown } }");
    expect_args("{\"properties\":{\"m\":{\"properties\":{\"a\":{\"type\":\"string\"}},"
                "\"additionalProperties\":false}}}",
                "args?: { m?: { a?: string } }");
    expect_args("{\"properties\":{\"m\":{\"type\":\"object\",\"additionalProperties\":false}}}",
                "args?: { m?: {} }");
    expect_args("{\"properties\":{\"m\":{\"patternProperties\":{\"^x\":{\"type\":\"string\"},"
                "\"^n\":{\"type\":\"integer\"}}}}}",
                "args?: { m?: { [key: string]: string | number } }");
}

static void test_object_keys_quoted(void **state)
{
    (void) state;
    expect_args("{\"properties\":{\"if\":{},\"x-y\":{},\"a.b\":{},\"\":{},\"q\\\"\\\\\":{},"
                "\"$ok\":{},\"1\":{}},\"required\":[\"if\"]}",
                "args: {\n"
                "      \"if\": unknown;\n"
                "      \"x-y\"?: unknown;\n"
                "      \"a.b\"?: unknown;\n"
                "      \"\"?: unknown;\n"
                "      \"q\\\"\\\\\"?: unknown;\n"
                "      $ok?: unknown;\n"
                "      \"1\"?: unknown;\n"
                "    }");
    /* two ill-formed names that repair to the same text: one member */
    expect_args("{\"properties\":{\"a\xff\":{\"type\":\"string\"},\"a\xfe\":{}}}",
                "args?: { \"a\xef\xbf\xbd\"?: string }");
    /* an optional Object member name also accepts Function (see tsc) */
    expect_args("{\"properties\":{\"constructor\":{\"type\":\"string\"},"
                "\"then\":{\"type\":\"string\"}},\"required\":[\"then\"]}",
                "args: { \"constructor\"?: string | Function; \"then\": string }");
}

static void test_object_layout_multiline(void **state)
{
    (void) state;
    /* too wide for one line: one member per line, nested indentation */
    expect_args("{\"properties\":{\"first_long_name\":{\"type\":\"string\"},"
                "\"second_long_name\":{\"type\":\"string\"},"
                "\"third\":{\"type\":\"array\",\"items\":{\"type\":\"object\",\"properties\":{"
                "\"a_rather_long_property\":{\"type\":\"string\",\"description\":\"doc\"},"
                "\"another_longer_property\":{\"type\":\"boolean\"}}}}}}",
                "args?: {\n"
                "      first_long_name?: string;\n"
                "      second_long_name?: string;\n"
                "      third?: {\n"
                "        /** doc */\n"
                "        a_rather_long_property?: string;\n"
                "        another_longer_property?: boolean;\n"
                "      }[];\n"
                "    }");
}

/* --- scalars, enums, unions ------------------------------------------------ */

static void test_types_enums_const(void **state)
{
    (void) state;
    expect_args("{\"properties\":{\"a\":{\"enum\":[\"x\",1,true,null,-2]},"
                "\"b\":{\"const\":\"c\"},\"c\":{\"enum\":[]},\"d\":{\"type\":\"integer\"}}}",
                "args?: { a?: \"x\" | 1 | true | null | -2; b?: \"c\"; c?: never; d?: number }");
    expect_args("{\"properties\":{\"o\":{\"const\":{\"k\":[1,\"v\"]}},\"e\":{\"const\":{}}}}",
                "args?: { o?: { \"k\": [1, \"v\"] }; e?: { [key: string]: never } }");
    expect_args("{\"properties\":{\"s\":{\"enum\":[\"a\\\"b\",\"\\u2028\"]}}}",
                "args?: { s?: \"a\\\"b\" | \"\\u2028\" }");
}

static void test_nullable(void **state)
{
    (void) state;
    expect_args("{\"properties\":{\"a\":{\"type\":[\"string\",\"null\"]},"
                "\"b\":{\"type\":\"string\",\"nullable\":true},"
                "\"c\":{\"anyOf\":[{\"type\":\"integer\"},{\"type\":\"null\"}]},"
                "\"d\":{\"type\":[\"integer\",\"number\"]}}}",
                "args?: { a?: string | null; b?: string | null; c?: number | null; d?: number }");
}

static void test_unions_and_intersections(void **state)
{
    (void) state;
    expect_args("{\"properties\":{\"u\":{\"oneOf\":[{\"type\":\"object\",\"properties\":{"
                "\"k\":{\"const\":1}},\"required\":[\"k\"]},{\"type\":\"string\"}]},"
                "\"i\":{\"allOf\":[{\"properties\":{\"x\":{}}},{\"properties\":{\"y\":{}}}]},"
                "\"w\":{\"anyOf\":[{\"type\":\"string\"},{}]}}}",
                "args?: { u?: { k: 1 } | string; i?: { x?: unknown } & { y?: unknown }; w?: "
                "unknown }");
    /* a base with structure is kept; unions inside an intersection get parentheses */
    expect_args("{\"properties\":{\"e\":{\"properties\":{\"a\":{}},"
                "\"oneOf\":[{\"required\":[\"a\"]},{\"required\":[\"b\"]}]}}}",
                "args?: { e?: { a?: unknown } & ({ a: unknown } | { b: unknown }) }");
    /* a bare type gives way to its branches */
    expect_args("{\"properties\":{\"e\":{\"type\":\"string\",\"anyOf\":[{\"const\":\"a\"},"
                "{\"const\":\"b\"}]}}}",
                "args?: { e?: \"a\" | \"b\" }");
}

static void test_arrays_and_tuples(void **state)
{
    (void) state;
    expect_args(
        "{\"properties\":{"
        "\"a\":{\"items\":{\"type\":[\"string\",\"number\"]}},"
        "\"b\":{\"type\":\"array\"},"
        "\"c\":{\"prefixItems\":[{\"type\":\"number\"},{\"type\":\"string\"}],"
        "\"items\":false,\"minItems\":1},"
        "\"d\":{\"items\":[{\"type\":\"string\"}],\"additionalItems\":{\"type\":\"number\"}},"
        "\"e\":{\"items\":false},\"f\":{\"items\":{\"const\":-1}}}}",
        "args?: {\n"
        "      a?: (string | number)[];\n"
        "      b?: unknown[];\n"
        "      /** @minItems 1 */\n"
        "      c?: [number, string?];\n"
        "      d?: [string?, ...number[]];\n"
        "      e?: [];\n"
        "      f?: (-1)[];\n"
        "    }");
}

static void test_boolean_and_unsupported(void **state)
{
    (void) state;
    expect_args(
        "{\"properties\":{\"t\":true,\"f\":false,\"n\":{\"not\":{}},\"x\":{\"type\":\"any\"},"
        "\"k\":42,\"r\":{\"$ref\":\"http://x/y.json\"},\"g\":{\"$ref\":\"#/nope\"}}}",
        "args?: {\n"
        "      t?: unknown;\n"
        "      f?: never;\n"
        "      n?: unknown;\n"
        "      x?: unknown;\n"
        "      k?: unknown;\n"
        "      r?: unknown;\n"
        "      g?: unknown;\n"
        "    }");
    expect_tool("true", "false", "    t(args?: unknown): Promise<never>;\n");
    expect_tool("42", NULL, "    t(args: unknown): Promise<unknown>;\n");
    /* args are optional only when an empty object would do */
    expect_tool("{\"items\":{}}", NULL, "    t(args: unknown[]): Promise<unknown>;\n");
    expect_tool("{\"enum\":[{}]}", NULL,
                "    t(args: { [key: string]: never }): Promise<unknown>;\n");
    expect_tool("{\"type\":[\"object\",\"null\"]}", NULL,
                "    t(args?: { [key: string]: unknown } | null): Promise<unknown>;\n");
}

/* --- docs and escaping ------------------------------------------------------ */

static void test_docs_and_tags(void **state)
{
    (void) state;
    expect_args("{\"properties\":{\"n\":{\"type\":\"number\",\"description\":\"Count\","
                "\"default\":3,\"minimum\":1,\"maximum\":10},"
                "\"u\":{\"type\":\"string\",\"format\":\"uri\"}}}",
                "args?: {\n"
                "      /** Count @default 3 @minimum 1 @maximum 10 */\n"
                "      n?: number;\n"
                "      /** @format uri */\n"
                "      u?: string;\n"
                "    }");
}

static void test_comment_escaping(void **state)
{
    (void) state;
    expect_full(
        "{\"properties\":{\"p\":{\"description\":\"a */ b\",\"pattern\":\"^.*/$\"}}}", NULL,
        "Tool */ closes?\r\nline\xe2\x80\xa8two\n\n\n\nend \x01 ",
        HEAD
        "    /**\n"
        "     * Tool *\\/ closes?\n"
        "     * line two\n"
        "     *\n"
        "     * end\n"
        "     */\n"
        "    t(args?: { /** a *\\/ b @pattern ^.*\\/$ */ p?: unknown }): Promise<unknown>;\n" TAIL);
    /* ill-formed UTF-8 in a description becomes U+FFFD */
    expect_full(NULL, NULL, "bad \xff byte",
                HEAD "    /** bad \xef\xbf\xbd byte */\n"
                     "    t(args?: { [key: string]: unknown }): Promise<unknown>;\n" TAIL);
}

static void test_original_names(void **state)
{
    (void) state;
    struct tools_decl_tool t = {.server = "my-srv",
                                .server_id = "my_srv",
                                .name = "get-x",
                                .id = "get_x",
                                .title = "Title"};
    struct buf b;
    buf_init(&b, 0);
    assert_int_equal(tools_declarations_tool(&t, 1, 0, &b), 0);
    assert_string_equal(b.data, "declare const tools: {\n"
                                "  /** Server \"my-srv\" (also tools[\"my-srv\"]) */\n"
                                "  my_srv: {\n"
                                "    /**\n"
                                "     * Title\n"
                                "     * Original name: \"get-x\" (also tools.my_srv[\"get-x\"])\n"
                                "     */\n"
                                "    get_x(args?: { [key: string]: unknown }): Promise<unknown>;\n"
                                "  };\n"
                                "};\n");
    buf_free(&b);
}

/* --- $ref ------------------------------------------------------------------ */

static void test_ref_used_once_is_inlined(void **state)
{
    (void) state;
    expect_args("{\"properties\":{\"p\":{\"$ref\":\"#/$defs/P\"}},"
                "\"$defs\":{\"P\":{\"description\":\"A point\",\"properties\":{\"x\":{\"type\":"
                "\"number\"}}}}}",
                "args?: { /** A point */ p?: { x?: number } }");
    /* draft-07 definitions, escaped pointers, anchors */
    expect_args("{\"properties\":{\"a\":{\"$ref\":\"#/definitions/a~1b~0c%25\"},"
                "\"b\":{\"$ref\":\"#it\"}},\"definitions\":{\"a/b~c%\":{\"type\":\"string\"},"
                "\"x\":{\"$anchor\":\"it\",\"type\":\"boolean\"}}}",
                "args?: { a?: string; b?: boolean }");
}

static void test_ref_used_twice_is_aliased(void **state)
{
    (void) state;
    expect_full("{\"properties\":{\"a\":{\"$ref\":\"#/$defs/P\"},\"b\":{\"$ref\":\"#/$defs/P\"}},"
                "\"$defs\":{\"P\":{\"description\":\"A point\",\"properties\":{\"x\":{}}}}}",
                NULL, NULL,
                "declare namespace Types {\n"
                "  /** A point */\n"
                "  type P = { x?: unknown };\n"
                "}\n" HEAD "    t(args?: { a?: Types.P; b?: Types.P }): Promise<unknown>;\n" TAIL);
}

static void test_recursive_ref(void **state)
{
    (void) state;
    expect_full("{\"$ref\":\"#/$defs/Node\",\"$defs\":{\"Node\":{\"type\":\"object\","
                "\"properties\":{\"name\":{\"type\":\"string\"},\"kids\":{\"type\":\"array\","
                "\"items\":{\"$ref\":\"#/$defs/Node\"}}},\"required\":[\"name\"]}}}",
                "{\"properties\":{\"n\":{\"$ref\":\"#\"}}}", NULL,
                "declare namespace Types {\n"
                "  type Node = { name: string; kids?: Types.Node[] };\n"
                "  type t_result = { n?: Types.t_result };\n"
                "}\n" HEAD "    t(args: Types.Node): Promise<Types.t_result>;\n" TAIL);
}

static void test_mutual_recursion(void **state)
{
    (void) state;
    expect_full("{\"properties\":{\"a\":{\"$ref\":\"#/$defs/A\"}},\"$defs\":{"
                "\"A\":{\"properties\":{\"b\":{\"$ref\":\"#/$defs/B\"}}},"
                "\"B\":{\"properties\":{\"a\":{\"$ref\":\"#/$defs/A\"}}}}}",
                NULL, NULL,
                "declare namespace Types {\n"
                "  type A = { b?: Types.B };\n"
                "  type B = { a?: Types.A };\n"
                "}\n" HEAD "    t(args?: { a?: Types.A }): Promise<unknown>;\n" TAIL);
}

static void test_unguarded_cycles_become_unknown(void **state)
{
    (void) state;
    /* TypeScript rejects type A = A and type C = D | string; D = C | number.
     * Behind an array the same aliases are fine. */
    expect_full("{\"properties\":{\"a\":{\"$ref\":\"#/$defs/A\"},\"c\":{\"$ref\":\"#/$defs/C\"},"
                "\"l\":{\"items\":{\"$ref\":\"#/$defs/C\"}},"
                "\"j\":{\"$ref\":\"#/$defs/J\"}},\"$defs\":{"
                "\"A\":{\"$ref\":\"#/$defs/A\"},"
                "\"C\":{\"anyOf\":[{\"$ref\":\"#/$defs/D\"},{\"type\":\"string\"}]},"
                "\"D\":{\"anyOf\":[{\"$ref\":\"#/$defs/C\"},{\"type\":\"number\"}]},"
                "\"J\":{\"anyOf\":[{\"type\":\"string\"},{\"items\":{\"$ref\":\"#/$defs/J\"}}]}}}",
                NULL, NULL,
                "declare namespace Types {\n"
                "  type A = unknown;\n"
                "  type C = unknown;\n"
                "  type J = string | Types.J[];\n"
                "}\n" HEAD
                "    t(args?: { a?: Types.A; c?: Types.C; l?: Types.C[]; j?: Types.J }): "
                "Promise<unknown>;\n" TAIL);
}

static void test_alias_names(void **state)
{
    (void) state;
    /* TypeScript keywords and clashes between tools get suffixes */
    cJSON *in1 = parse("{\"properties\":{\"a\":{\"$ref\":\"#/$defs/string\"},"
                       "\"b\":{\"$ref\":\"#/$defs/string\"}},\"$defs\":{\"string\":{}}}");
    cJSON *in2 = parse("{\"properties\":{\"a\":{\"$ref\":\"#/$defs/string\"},"
                       "\"b\":{\"$ref\":\"#/$defs/string\"}},\"$defs\":{\"string\":{\"type\":"
                       "\"number\"}}}");
    struct tools_decl_tool t[] = {
        {.server = "s", .server_id = "s", .name = "b", .id = "b", .input_schema = in2},
        {.server = "s", .server_id = "s", .name = "a", .id = "a", .input_schema = in1}};
    struct buf b;
    buf_init(&b, 0);
    assert_int_equal(tools_declarations_tool(t, 2, 0, &b), 0);
    assert_string_equal(b.data,
                        "declare namespace Types {\n"
                        "  type string__2 = number;\n"
                        "}\n" HEAD "    b(args?: { a?: Types.string__2; b?: Types.string__2 }): "
                        "Promise<unknown>;\n" TAIL);
    buf_free(&b);
    cJSON_Delete(in1);
    cJSON_Delete(in2);
}

/* --- whole lists -------------------------------------------------------------- */

static const char *const list_json =
    "[{\"server\":\"wx\",\"name\":\"b\",\"description\":\"B. More text.\"},"
    "{\"server\":\"wx\",\"name\":\"a\",\"description\":\"A tool\"},"
    "{\"server\":\"alpha\",\"name\":\"z\",\"inputSchema\":{\"properties\":{\"q\":"
    "{\"type\":\"string\"}},\"required\":[\"q\"]},\"outputSchema\":{\"properties\":{\"r\":"
    "{\"type\":\"number\"}},\"required\":[\"r\"]}}]";

static size_t load(const cJSON *list, struct tools_decl_tool *t, size_t max)
{
    size_t n = 0;
    for (const cJSON *e = list->child; e && n < max; e = e->next, n++) {
        const cJSON *d = cJSON_GetObjectItem(e, "description");
        t[n] = (struct tools_decl_tool){.server = cJSON_GetObjectItem(e, "server")->valuestring,
                                        .server_id = cJSON_GetObjectItem(e, "server")->valuestring,
                                        .name = cJSON_GetObjectItem(e, "name")->valuestring,
                                        .id = cJSON_GetObjectItem(e, "name")->valuestring,
                                        .description = d ? d->valuestring : NULL,
                                        .input_schema = cJSON_GetObjectItem(e, "inputSchema"),
                                        .output_schema = cJSON_GetObjectItem(e, "outputSchema")};
    }
    return n;
}

static const char *const full_tools =
    "declare const tools: {\n"
    "  alpha: {\n"
    "    z(args: { q: string }): Promise<{ r: number }>;\n"
    "  };\n"
    "  wx: {\n"
    "    /** A tool */\n"
    "    a(args?: { [key: string]: unknown }): Promise<unknown>;\n"
    "    /** B. More text. */\n"
    "    b(args?: { [key: string]: unknown }): Promise<unknown>;\n"
    "  };\n"
    "};\n";

static void test_full_is_sorted_and_deterministic(void **state)
{
    (void) state;
    cJSON *list = parse(list_json);
    struct tools_decl_tool t[3], r[3];
    size_t n = load(list, t, 3);
    for (size_t i = 0; i < n; i++)
        r[i] = t[n - 1 - i];
    struct buf a, b, rt;
    buf_init(&a, 0);
    buf_init(&b, 0);
    buf_init(&rt, 0);
    assert_int_equal(tools_declarations_full(t, n, &a), 0);
    assert_int_equal(tools_declarations_full(r, n, &b), 0);
    assert_int_equal(tools_declarations_runtime(&rt), 0);
    assert_string_equal(a.data, b.data);
    assert_int_equal(strncmp(a.data, rt.data, rt.len), 0);
    assert_string_equal(a.data + rt.len, full_tools);
    buf_free(&a);
    buf_free(&b);
    buf_free(&rt);
    cJSON_Delete(list);
}

static void test_runtime_declares_the_globals(void **state)
{
    (void) state;
    struct buf b;
    buf_init(&b, 0);
    assert_int_equal(tools_declarations_runtime(&b), 0);
    static const char *const want[] = {
        "declare class ToolError extends Error { tool: string; result: unknown }",
        "declare class ToolArgumentError extends Error { tool: string; violations: { path: string; keyword: string; message: string }[] }",
        "declare class ToolPolicyError extends ToolError { decision: \"deny\" | \"not_granted\" }",
        "declare class ToolApprovalError extends ToolError { reason: string }",
        "declare function callTool(name: string, args?: object): Promise<unknown>;",
        "declare function searchTools(query: string): Promise<{ name: string; summary: string "
        "}[]>;",
        "declare function describeTool(name: string): Promise<string>;",
        "declare function sleep(ms: number): Promise<void>;",
        "declare function setTimeout(",
        "declare function clearTimeout(",
        "declare const console: { [level in \"log\" | \"info\" | \"warn\" | \"error\" | "
        "\"debug\"]: (...data: unknown[]) => void };\n",
        "declare const content: {",
        "declare function atob(data: string): string;"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (strstr(b.data, want[i]) == NULL)
            fail_msg("runtime lacks: %s", want[i]);
    buf_free(&b);
}

static void test_errors_leave_output_unchanged(void **state)
{
    (void) state;
    cJSON *list = parse(list_json);
    struct tools_decl_tool t[3];
    size_t n = load(list, t, 3);
    struct buf b;
    buf_init(&b, 64);
    buf_append_str(&b, "keep");
    assert_int_equal(tools_declarations_full(t, n, &b), -ENOSPC);
    assert_int_equal(tools_declarations_index(t, n, &b), -ENOSPC);
    assert_int_equal(tools_declarations_runtime(&b), -ENOSPC);
    assert_int_equal(tools_declarations_server(t, n, "wx", &b), -ENOSPC);
    assert_int_equal(tools_declarations_for_budget(t, n, 0, &b), -ENOSPC);
    assert_string_equal(b.data, "keep");
    assert_int_equal(tools_declarations_server(t, n, "nope", &b), -ENOENT);
    assert_int_equal(tools_declarations_tool(t, n, 3, &b), -EINVAL);
    assert_string_equal(b.data, "keep");
    buf_free(&b);
    cJSON_Delete(list);
}

static void test_index_and_budget(void **state)
{
    (void) state;
    cJSON *list = parse(list_json);
    struct tools_decl_tool t[3];
    size_t n = load(list, t, 3);
    struct buf idx, rt, out;
    buf_init(&idx, 0);
    buf_init(&rt, 0);
    buf_init(&out, 0);
    assert_int_equal(tools_declarations_index(t, n, &idx), 0);
    assert_int_equal(tools_declarations_runtime(&rt), 0);
    const char *tail = strstr(idx.data, "// Tools (server.tool - summary):\n");
    assert_non_null(tail);
    assert_string_equal(tail, "// Tools (server.tool - summary):\n"
                              "// alpha.z\n"
                              "// wx.a - A tool\n"
                              "// wx.b - B.\n");
    assert_non_null(strstr(idx.data, "declare const tools: { [server: string]: { [tool: "
                                     "string]: (args?: object) => Promise<unknown> } };\n"));
    assert_int_equal(tools_declarations_for_budget(t, n, 100, &out), 1);
    assert_string_equal(out.data, idx.data);
    buf_reset(&out);
    assert_int_equal(tools_declarations_for_budget(t, n, 0, &out), 0);
    assert_string_equal(out.data + rt.len, full_tools);
    buf_free(&idx);
    buf_free(&rt);
    buf_free(&out);
    cJSON_Delete(list);
}

/* A server whose tools are not known until a login: one index-signature
 * block with the note, in server order, the same at every budget (never
 * counted as reduced), in one server's text and in the index. */
static void test_login_only_server(void **state)
{
    (void) state;
    cJSON *in = parse("{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"string\"}}}");
    struct tools_decl_tool t[3] = {
        {.server = "zed", .server_id = "zed", .name = "t", .id = "t", .input_schema = in},
        {.server = "my-notes", .server_id = "my_notes", .name = "", .id = "", .login_only = 1},
        {.server = "a", .server_id = "a", .name = "t", .id = "t", .input_schema = in},
    };
    static const char body[] = "  my_notes: {\n    [tool: string]: (args?: object) => "
                               "Promise<unknown>;\n  };\n";
    struct buf b;
    buf_init(&b, 0);
    assert_int_equal(tools_declarations_full(t, 3, &b), 0);
    const char *note = strstr(b.data, "Needs login: the tools of server \"my-notes\"");
    assert_non_null(note);
    assert_non_null(strstr(note, "tools.my_notes.NAME(args), callTool(\"my_notes.NAME\", args)"));
    assert_non_null(strstr(note, "run `mcp-codemode login my-notes`"));
    assert_non_null(strstr(note, "ToolAuthError"));
    const char *a = strstr(b.data, "\n  a: {"), *m = strstr(b.data, body),
               *z = strstr(b.data, "\n  zed: {");
    assert_true(a && m && z && a < m && m < z); /* sorted by server id */
    /* names only: the real tools are reduced, the login block is not */
    buf_reset(&b);
    struct tools_decl_report rep;
    assert_int_equal(tools_declarations_budgeted(t, 3, 0, &b, &rep), 2);
    assert_non_null(strstr(b.data, body));
    assert_non_null(strstr(b.data, "Needs login: the tools of server \"my-notes\""));
    assert_int_equal(rep.per_level[TOOLS_DECL_NAME], 2);
    free(rep.levels);
    buf_reset(&b);
    assert_int_equal(tools_declarations_server(t, 3, "my_notes", &b), 0);
    assert_non_null(strstr(b.data, body));
    assert_null(strstr(b.data, "zed"));
    buf_reset(&b);
    assert_int_equal(tools_declarations_index(t, 3, &b), 0);
    assert_non_null(strstr(b.data, "// a.t\n// my_notes.* - needs login: its tools are not known "
                                   "yet; calling any of them logs in first\n// zed.t\n"));
    buf_free(&b);
    cJSON_Delete(in);
}

static void expect_summary(const char *d, const char *title, size_t max, const char *want)
{
    char *got = tools_declarations_summary(d, title, max);
    assert_string_equal(got, want);
    free(got);
}

static void test_summary(void **state)
{
    (void) state;
    expect_summary("Reads a file. Then more.", NULL, 0, "Reads a file.");
    expect_summary("Use e.g. this one. Next!", NULL, 0, "Use e.g. this one.");
    expect_summary("Version 1.2 is out", NULL, 0, "Version 1.2 is out");
    expect_summary("  First line\nsecond line", NULL, 0, "First line");
    expect_summary("Spaces   and\ttabs  here.", NULL, 0, "Spaces and tabs here.");
    expect_summary(NULL, "A title", 0, "A title");
    expect_summary(" \n ", "Title. Two", 0, "Title.");
    expect_summary(NULL, NULL, 0, "");
    expect_summary("one two three four five six", NULL, 16, "one two three...");
    expect_summary("abcdefghijklmnopqrstuvwxyz", NULL, 10, "abcdefg...");
    /* never cut inside a code point: e-acute is 2 bytes */
    expect_summary("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", NULL, 8, "\xc3\xa9\xc3\xa9...");
    char *s = tools_declarations_summary(
        "A very long first sentence that goes on and on well past the one hundred byte limit "
        "of a summary line, with more words.",
        NULL, 0);
    assert_true(strlen(s) <= TOOLS_DECLARATIONS_SUMMARY_MAX);
    assert_string_equal(s + strlen(s) - 3, "...");
    free(s);
}

/* --- hostile inputs ------------------------------------------------------------- */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void test_long_ref_chain(void **state)
{
    (void) state;
    /* 20000 definitions, each naming the next, the last naming the first:
     * one big cycle, analysed without recursion, in linear time */
    enum { N = 20000 };
    cJSON *root = cJSON_CreateObject(), *defs = cJSON_AddObjectToObject(root, "$defs");
    char name[64], ref[80];
    for (int i = 0; i < N; i++) {
        cJSON *d = cJSON_CreateObject();
        cJSON *props = cJSON_AddObjectToObject(d, "properties");
        cJSON *next = cJSON_AddObjectToObject(props, "next");
        snprintf(ref, sizeof ref, "#/$defs/D%d", (i + 1) % N);
        cJSON_AddStringToObject(next, "$ref", ref);
        snprintf(name, sizeof name, "D%d", i);
        cJSON_AddItemToObject(defs, name, d);
    }
    cJSON_AddStringToObject(root, "$ref", "#/$defs/D0");
    struct tools_decl_tool t = {
        .server = "s", .server_id = "s", .name = "t", .id = "t", .input_schema = root};
    struct buf b;
    buf_init(&b, 0);
    double t0 = now();
    assert_int_equal(tools_declarations_full(&t, 1, &b), 0);
    double dt = now() - t0;
    assert_non_null(strstr(b.data, "type D0 = { next?: Types.D1 };"));
    assert_non_null(strstr(b.data, "type D19999 = { next?: Types.D0 };"));
    assert_true(b.len < 1000000);
    if (dt > 3.0)
        fail_msg("20000-definition cycle took %.2f s", dt);
    buf_free(&b);
    cJSON_Delete(root);
}

static void test_huge_object_and_enum(void **state)
{
    (void) state;
    /* 20000 properties (every other one required, plus a repeated key) and
     * a 20000-value enum: sets keep this linear (it took 9 s when not) */
    enum { N = 20000 };
    cJSON *root = cJSON_CreateObject(), *props = cJSON_AddObjectToObject(root, "properties");
    cJSON *req = cJSON_AddArrayToObject(root, "required");
    cJSON *e = cJSON_CreateObject(), *values = cJSON_AddArrayToObject(e, "enum");
    char name[32];
    for (int i = 0; i < N; i++) {
        snprintf(name, sizeof name, "p%d", i);
        cJSON_AddItemToObject(props, name, cJSON_CreateObject());
        if (i % 2 == 0)
            cJSON_AddItemToArray(req, cJSON_CreateString(name));
        cJSON_AddItemToArray(values, cJSON_CreateNumber(i));
    }
    cJSON_AddItemToObject(props, "p1", cJSON_CreateObject()); /* a repeated key */
    cJSON_AddItemToObject(props, "e", e);
    struct tools_decl_tool t = {
        .server = "s", .server_id = "s", .name = "t", .id = "t", .input_schema = root};
    struct buf b;
    buf_init(&b, 0);
    double t0 = now();
    assert_int_equal(tools_declarations_full(&t, 1, &b), 0);
    double dt = now() - t0;
    assert_non_null(strstr(b.data, "      p0: unknown;\n      p1?: unknown;\n"));
    assert_non_null(strstr(b.data, "      e?: 0 | 1 | 2 |"));
    assert_non_null(strstr(b.data, " | 19999;\n"));
    const char *first = strstr(b.data, " p1?: "); /* the repeated key once */
    assert_null(strstr(first + 1, " p1?: "));
    if (dt > 3.0)
        fail_msg("20000 properties took %.2f s", dt);
    buf_free(&b);
    cJSON_Delete(root);
}

static void test_deep_nesting(void **state)
{
    (void) state;
    /* 2000 nested objects (built by hand: cJSON's parser stops at 1000) */
    cJSON *root = cJSON_CreateObject(), *cur = root;
    for (int i = 0; i < 2000; i++) {
        cJSON *props = cJSON_AddObjectToObject(cur, "properties");
        cur = cJSON_AddObjectToObject(props, "n");
    }
    struct tools_decl_tool t = {
        .server = "s", .server_id = "s", .name = "t", .id = "t", .input_schema = root};
    struct buf b;
    buf_init(&b, 0);
    assert_int_equal(tools_declarations_full(&t, 1, &b), 0);
    assert_non_null(strstr(b.data, "n?: unknown"));
    assert_true(b.len < 200000);
    buf_free(&b);
    cJSON_Delete(root);
}

/* --- the saved tool lists ------------------------------------------------------ */

static cJSON *read_fixture(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "tests/fixtures/declarations/%s", name);
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        fail_msg("cannot open %s (run from the repository root)", path);
    struct buf b;
    buf_init(&b, 0);
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        buf_append(&b, chunk, n);
    fclose(f);
    cJSON *j = cJSON_Parse(b.data);
    buf_free(&b);
    assert_true(cJSON_IsArray(j));
    return j;
}

/* Names a fixture list the way the catalog will: servers, then each
 * server's tools, through tools_names_assign. */
struct named {
    struct tools_decl_tool *t;
    char **ids; /* per tool, then per distinct server */
    size_t n, nids;
};

static void name_list(const cJSON *list, struct named *nm)
{
    size_t n = (size_t) cJSON_GetArraySize(list);
    const char **servers = xcalloc(n, sizeof *servers), **tools = xcalloc(n, sizeof *tools);
    size_t ns = 0;
    for (const cJSON *e = list->child; e; e = e->next) {
        const char *s = cJSON_GetObjectItem(e, "server")->valuestring;
        size_t i = 0;
        while (i < ns && strcmp(servers[i], s))
            i++;
        if (i == ns)
            servers[ns++] = s;
    }
    char **sids = tools_names_assign(servers, ns);
    nm->t = xcalloc(n, sizeof *nm->t);
    nm->ids = xcalloc(n + ns, sizeof *nm->ids);
    nm->n = n;
    nm->nids = n + ns;
    for (size_t s = 0; s < ns; s++) {
        size_t k = 0, *at = xcalloc(n, sizeof *at), i = 0;
        for (const cJSON *e = list->child; e; e = e->next, i++)
            if (!strcmp(cJSON_GetObjectItem(e, "server")->valuestring, servers[s])) {
                at[k] = i;
                tools[k++] = cJSON_GetObjectItem(e, "name")->valuestring;
            }
        char **tids = tools_names_assign(tools, k);
        for (size_t j = 0; j < k; j++) {
            const cJSON *e = cJSON_GetArrayItem(list, (int) at[j]);
            const cJSON *d = cJSON_GetObjectItem(e, "description");
            const cJSON *ti = cJSON_GetObjectItem(e, "title");
            nm->t[at[j]] =
                (struct tools_decl_tool){.server = servers[s],
                                         .server_id = sids[s],
                                         .name = tools[j],
                                         .id = tids[j],
                                         .title = cJSON_IsString(ti) ? ti->valuestring : NULL,
                                         .description = cJSON_IsString(d) ? d->valuestring : NULL,
                                         .input_schema = cJSON_GetObjectItem(e, "inputSchema"),
                                         .output_schema = cJSON_GetObjectItem(e, "outputSchema")};
            nm->ids[at[j]] = tids[j];
        }
        free(tids);
        free(at);
    }
    memcpy(nm->ids + n, sids, ns * sizeof *sids);
    free(sids);
    free(tools);
    free(servers);
}

static void named_free(struct named *nm)
{
    tools_names_free(nm->ids, nm->nids);
    free(nm->t);
}

static void test_reference_server_fixtures(void **state)
{
    (void) state;
    static const char *const files[] = {"server-memory.tools.json", "server-filesystem.tools.json",
                                        "server-everything.tools.json"};
    static const char *const expect[] = {
        "    create_entities(args: { entities: Types.Entity[] }): Promise<{ entities: "
        "Types.Entity[] }>;\n",
        "    read_text_file(args: {\n      path: string;\n",
        "    get_sum(args: { /** First number */ a: number; /** Second number */ b: number }): "
        "Promise<unknown>;\n"};
    for (size_t i = 0; i < 3; i++) {
        cJSON *list = read_fixture(files[i]);
        struct named nm;
        name_list(list, &nm);
        struct buf b;
        buf_init(&b, 0);
        assert_int_equal(tools_declarations_full(nm.t, nm.n, &b), 0);
        if (strstr(b.data, expect[i]) == NULL)
            fail_msg("%s: missing\n%s\nin\n%s", files[i], expect[i], b.data);
        assert_true(tools_declarations_tokens(b.len) < TOOLS_DECLARATIONS_BUDGET_DEFAULT);
        buf_free(&b);
        named_free(&nm);
        cJSON_Delete(list);
    }
}

static void test_nasty_fixture(void **state)
{
    (void) state;
    cJSON *list = read_fixture("nasty.tools.json");
    struct named nm;
    name_list(list, &nm);
    struct buf a, b;
    buf_init(&a, 0);
    buf_init(&b, 0);
    assert_int_equal(tools_declarations_full(nm.t, nm.n, &a), 0);
    assert_int_equal(tools_declarations_full(nm.t, nm.n, &b), 0);
    assert_string_equal(a.data, b.data);
    /* comment text never closes its comment ("/" "*" inside one is harmless) */
    assert_non_null(strstr(a.data, " * Closes early? *\\/ and opens /* and /** too.\n"));
    assert_null(strstr(a.data, "early? */"));
    assert_non_null(strstr(a.data, "/** evil *\\/ description @default \"*\\/\" @pattern ^.*\\/$ "
                                   "@example \"a*\\/b\" */"));
    assert_non_null(
        strstr(a.data, "    then_(args?: { [key: string]: unknown }): Promise<unknown>;"));
    assert_non_null(strstr(a.data, "  my_server_2: {\n"));
    /* every tool on its own, and every server */
    for (size_t i = 0; i < nm.n; i++) {
        buf_reset(&b);
        assert_int_equal(tools_declarations_tool(nm.t, nm.n, i, &b), 0);
        assert_non_null(strstr(b.data, nm.t[i].id));
        buf_reset(&b);
        assert_int_equal(tools_declarations_server(nm.t, nm.n, nm.t[i].server_id, &b), 0);
    }
    buf_free(&a);
    buf_free(&b);
    named_free(&nm);
    cJSON_Delete(list);
}


/* --- compact levels, repeated shapes, the budget -------------------------- */

static char *text_at(const struct tools_decl_tool *t, size_t n, int level)
{
    unsigned char levels[16];
    assert_true(n <= sizeof levels);
    memset(levels, level, n);
    struct buf b;
    buf_init(&b, 0);
    assert_int_equal(tools_declarations_at(t, n, levels, &b), 0);
    return buf_steal(&b);
}

static size_t count_of(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

static void test_repeated_shapes_are_named_once(void **state)
{
    (void) state;
    const char *item = "{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\","
                       "\"description\":\"Its name\"},\"kind\":{\"enum\":[\"a\",\"b\"]},"
                       "\"count\":{\"type\":\"number\"}},\"required\":[\"name\"]}";
    const char *small = "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"},"
                        "\"b\":{\"type\":\"string\"}}}";
    char in1[1024], out2[1024], in2[1024];
    snprintf(in1, sizeof in1, "{\"properties\":{\"items\":{\"type\":\"array\",\"items\":%s},"
             "\"p\":%s}}", item, small);
    snprintf(out2, sizeof out2, "{\"properties\":{\"one\":%s,\"q\":%s}}", item, small);
    /* the same shape holding a $ref: its text would mean another type elsewhere */
    snprintf(in2, sizeof in2, "{\"properties\":{\"r\":{\"type\":\"object\",\"properties\":{"
             "\"x\":{\"$ref\":\"#/$defs/X\"},\"y\":{\"$ref\":\"#/$defs/X\"},\"zzzzzzzzzzzzzzzz\":"
             "{\"type\":\"string\"}}}},\"$defs\":{\"X\":{\"type\":\"string\"}}}");
    cJSON *a_in = parse(in1), *b_out = parse(out2), *b_in = parse(in2), *c_in = parse(in2);
    struct tools_decl_tool t[] = {
        {.server = "s", .server_id = "s", .name = "a", .id = "a", .input_schema = a_in},
        {.server = "s",
         .server_id = "s",
         .name = "b",
         .id = "b",
         .input_schema = b_in,
         .output_schema = b_out},
        {.server = "s", .server_id = "s", .name = "c", .id = "c", .input_schema = c_in}};
    struct buf one;
    buf_init(&one, 0);
    for (int level = TOOLS_DECL_FULL; level <= TOOLS_DECL_SIGNATURE; level++) {
        char *text = text_at(t, 3, level);
        assert_int_equal(count_of(text, "  type Item = {"), 1);
        assert_int_equal(count_of(text, "items?: Types.Item[]"), 1);
        assert_int_equal(count_of(text, "one?: Types.Item"), 1);
        assert_int_equal(count_of(text, "{ a?: string; b?: string }"), 2); /* too small to name */
        assert_null(strstr(text, "type R ="));
        free(text);
    }
    /* one tool's declaration (describeTool) declares the shape it names */
    assert_int_equal(tools_declarations_tool(t, 3, 1, &one), 0);
    if (strstr(one.data, "  type Item = { /** Its name */ name: string; kind?: \"a\" | \"b\"; "
                         "count?: number };\n}\n") == NULL)
        fail_msg("no Item in\n%s", one.data);
    assert_non_null(strstr(one.data, "Promise<{ one?: Types.Item;"));
    buf_free(&one);
    cJSON_Delete(a_in);
    cJSON_Delete(b_in);
    cJSON_Delete(b_out);
    cJSON_Delete(c_in);
}

static void test_docs_level_cuts_prose_not_signatures(void **state)
{
    (void) state;
    cJSON *in = parse("{\"properties\":{\"path\":{\"type\":\"string\",\"description\":\"The path "
                      "of the file to read, relative to the root of the workspace. Absolute "
                      "paths are refused.\",\"examples\":[\"a/b.txt\"],\"pattern\":\"^[^/]\"},"
                      "\"mode\":{\"enum\":[\"text\",\"base64\"],\"default\":\"text\"},"
                      "\"strict\":{\"type\":\"boolean\",\"default\":false}},\"required\":"
                      "[\"path\"]}");
    struct tools_decl_tool t = {
        .server = "s",
        .server_id = "s",
        .name = "read-it",
        .id = "read_it",
        .description = "Reads a file and returns its contents as text or base64. Files "
                       "over the size limit are refused. Use list first to find paths.",
        .input_schema = in,
        .policy_note = "Needs approval: a person approves each call."};
    char *full = text_at(&t, 1, TOOLS_DECL_FULL);
    char *docs = text_at(&t, 1, TOOLS_DECL_DOCS);
    char *summary = text_at(&t, 1, TOOLS_DECL_SUMMARY);
    char *sig = text_at(&t, 1, TOOLS_DECL_SIGNATURE);
    assert_non_null(strstr(full, "Use list first to find paths."));
    assert_non_null(strstr(full, "@example \"a/b.txt\""));
    assert_non_null(strstr(full, "Original name: \"read-it\""));
    assert_non_null(strstr(docs, "/** Reads a file and returns its contents as text or base64. "
                                 "Needs approval. */\n"));
    assert_non_null(strstr(docs, "/** The path of the file to read, relative to the... */ path: "
                                 "string;"));
    assert_non_null(strstr(docs, "/** @default \"text\" */ mode?: \"text\" | \"base64\";"));
    assert_non_null(strstr(docs, "strict?: boolean")); /* @default false says nothing */
    assert_null(strstr(docs, "@default false"));
    assert_null(strstr(docs, "@example"));
    assert_null(strstr(docs, "@pattern"));
    assert_null(strstr(docs, "Original name"));
    assert_non_null(strstr(summary, "    /** Reads a file and returns its contents as text or "
                                    "base64. Needs approval. */\n    read_it(args: { path: string; "
                                    "mode?: \"text\" | \"base64\"; strict?: boolean }): "
                                    "Promise<unknown>;\n"));
    assert_non_null(strstr(sig, "    /** Needs approval. */\n    read_it(args: { path: string; "
                                "mode?: \"text\" | \"base64\"; strict?: boolean }): "
                                "Promise<unknown>;\n"));
    free(full);
    free(docs);
    free(summary);
    free(sig);
    cJSON_Delete(in);
}

/* Six tools with long docs on two servers; `rank` as given. */
struct six {
    cJSON *in[6];
    struct tools_decl_tool t[6];
};

static void six_init(struct six *x, const size_t *rank)
{
    static const char *const names[] = {"t0", "t1", "t2", "t3", "t4", "t5"};
    for (size_t i = 0; i < 6; i++) {
        x->in[i] = parse("{\"properties\":{\"query\":{\"type\":\"string\",\"description\":\"What "
                         "to look for, in a few words or a whole sentence.\"},\"limit\":{\"type\":"
                         "\"integer\",\"description\":\"How many results to return at most.\"}},"
                         "\"required\":[\"query\"]}");
        x->t[i] = (struct tools_decl_tool){
            .server = i < 3 ? "first" : "second",
            .server_id = i < 3 ? "first" : "second",
            .name = names[i],
            .id = names[i],
            .description = "Searches the index for matching documents. It ranks "
                           "them by relevance and recency, and returns their "
                           "titles and links.",
            .input_schema = x->in[i],
            .rank = rank ? rank[i] : i};
    }
}

static void six_free(struct six *x)
{
    for (size_t i = 0; i < 6; i++)
        cJSON_Delete(x->in[i]);
}

/* The reducer's promises at one budget; returns the report's levels. */
static void check_budget(struct six *x, size_t budget, unsigned char *levels_out)
{
    struct buf b, again;
    buf_init(&b, 0);
    buf_init(&again, 0);
    struct tools_decl_report r;
    int reduced = tools_declarations_budgeted(x->t, 6, budget, &b, &r);
    assert_true(reduced >= 0);
    assert_int_equal(r.bytes, b.len);
    assert_int_equal(r.tokens, tools_declarations_tokens(b.len));
    assert_int_equal(r.budget, budget);
    int min = TOOLS_DECL_LEVELS, max = 0, counted = 0;
    size_t sum = 0;
    for (size_t i = 0; i < 6; i++) {
        min = r.levels[i] < min ? r.levels[i] : min;
        max = r.levels[i] > max ? r.levels[i] : max;
        counted += r.levels[i] > TOOLS_DECL_DOCS;
        assert_true(r.levels[i] >= TOOLS_DECL_DOCS);
    }
    for (int l = 0; l < TOOLS_DECL_LEVELS; l++)
        sum += r.per_level[l];
    assert_int_equal(sum, 6);
    assert_int_equal(reduced, counted);
    assert_true(max - min <= 1); /* no tool falls two levels below another */
    if (min < TOOLS_DECL_NAME)
        assert_true(r.tokens <= budget); /* it fits unless names alone do not */
    /* the text is the one tools_declarations_at writes at those levels */
    assert_int_equal(tools_declarations_at(x->t, 6, r.levels, &again), 0);
    assert_string_equal(again.data, b.data);
    memcpy(levels_out, r.levels, 6);
    free(r.levels);
    buf_free(&b);
    buf_free(&again);
}

static void test_budget_reduces_tool_by_tool(void **state)
{
    (void) state;
    struct six x;
    six_init(&x, NULL);
    unsigned char levels[6];
    check_budget(&x, 100000, levels);
    for (size_t i = 0; i < 6; i++)
        assert_int_equal(levels[i], TOOLS_DECL_DOCS);
    int seen_partial = 0;
    for (size_t budget = 1400; budget > 0; budget -= 20) {
        check_budget(&x, budget, levels);
        /* lower priority (higher rank) never keeps more than higher priority */
        for (size_t i = 1; i < 6; i++)
            assert_true(levels[i] >= levels[i - 1]);
        seen_partial |= levels[0] != levels[5];
    }
    assert_true(seen_partial); /* some budgets split the tools between two levels */
    check_budget(&x, 0, levels);
    for (size_t i = 0; i < 6; i++)
        assert_int_equal(levels[i], TOOLS_DECL_NAME);
    six_free(&x);
}

static void test_budget_keeps_preferred_tools_longest(void **state)
{
    (void) state;
    const size_t rank[6] = {5, 5, 5, 5, 5, 0}; /* t5 preferred, the rest tie: output order */
    struct six x;
    six_init(&x, rank);
    unsigned char levels[6];
    for (size_t budget = 1400; budget > 0; budget -= 20) {
        check_budget(&x, budget, levels);
        for (size_t i = 0; i < 5; i++) {
            assert_true(levels[5] <= levels[i]);
            if (i > 0)
                assert_true(levels[i] >= levels[i - 1]);
        }
    }
    six_free(&x);
}

static void test_budget_names_only_and_stability(void **state)
{
    (void) state;
    struct six x;
    six_init(&x, NULL);
    x.t[2].policy_note = "Needs approval: a person approves each call.";
    struct buf b, rev;
    buf_init(&b, 0);
    buf_init(&rev, 0);
    assert_int_equal(tools_declarations_budgeted(x.t, 6, 0, &b, NULL), 6);
    assert_non_null(strstr(b.data, "\ntype AnyTool = (args?: object) => Promise<unknown>;\n"));
    assert_non_null(strstr(b.data, "\n    t0: AnyTool;\n"));
    assert_non_null(strstr(b.data, "\n    /** Needs approval. */\n    t2: AnyTool;\n"));
    assert_null(strstr(b.data, "limit?:"));
    /* the same tools in another order give the same bytes, at every budget */
    struct tools_decl_tool r[6];
    for (size_t budget = 0; budget < 1400; budget += 70) {
        for (size_t i = 0; i < 6; i++)
            r[i] = x.t[5 - i];
        buf_reset(&b);
        buf_reset(&rev);
        assert_true(tools_declarations_budgeted(x.t, 6, budget, &b, NULL) >= 0);
        assert_true(tools_declarations_budgeted(r, 6, budget, &rev, NULL) >= 0);
        assert_string_equal(b.data, rev.data);
    }
    /* a limited output is left as it was */
    struct buf small;
    buf_init(&small, 16);
    buf_append_str(&small, "keep");
    struct tools_decl_report rep;
    assert_int_equal(tools_declarations_budgeted(x.t, 6, 100000, &small, &rep), -ENOSPC);
    assert_null(rep.levels);
    assert_string_equal(small.data, "keep");
    buf_free(&small);
    buf_free(&b);
    buf_free(&rev);
    six_free(&x);
}

static void test_token_estimate(void **state)
{
    (void) state;
    assert_int_equal(tools_declarations_tokens(0), 0);
    assert_int_equal(tools_declarations_tokens(1), 1);
    assert_int_equal(tools_declarations_tokens(4), 1);
    assert_int_equal(tools_declarations_tokens(5), 2);
    assert_string_equal(tools_declarations_level_name(TOOLS_DECL_SUMMARY), "summary");
}

/* A type learned from results (tools/result_shape.h) is declared with a
 * mark at every level but names, and a sentence at FULL; an outputSchema
 * wins over it. */
static void test_observed_result_type(void **state)
{
    (void) state;
    cJSON *in = parse("{\"type\":\"object\",\"properties\":{}}");
    cJSON *seen = parse("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"number\"},"
                        "\"tags\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}},"
                        "\"required\":[\"id\"]}");
    cJSON *out = parse("{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\"}}}");
    struct tools_decl_tool t[2] = {
        {.server = "s", .server_id = "s", .name = "a", .id = "a", .description = "Gets a thing.",
         .input_schema = in, .observed_output = seen},
        {.server = "s", .server_id = "s", .name = "b", .id = "b", .input_schema = in,
         .output_schema = out, .observed_output = seen, .rank = 1},
    };
    for (int level = TOOLS_DECL_FULL; level <= TOOLS_DECL_SIGNATURE; level++) {
        char *text = text_at(t, 2, level);
        if (!strstr(text, "a(args?: {}): Promise</* observed */ { id: number; tags?: string[] }>;\n"))
            fail_msg("level %d:\n%s", level, strstr(text, "declare const tools"));
        assert_non_null(strstr(text, "b(args?: {}): Promise<{ n?: number }>;\n"));
        assert_int_equal(count_of(text, "observed"), level == TOOLS_DECL_FULL ? 2 : 1);
        free(text);
    }
    char *full = text_at(t, 1, TOOLS_DECL_FULL);
    assert_non_null(strstr(full, "Gets a thing.\n     * The result type is observed: learned from "
                                 "earlier results"));
    free(full);
    cJSON_Delete(in);
    cJSON_Delete(seen);
    cJSON_Delete(out);
}

int main(void)
{
    alloc_install_cjson_hooks();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_observed_result_type),
        cmocka_unit_test(test_object_required_optional),
        cmocka_unit_test(test_object_additional_properties),
        cmocka_unit_test(test_object_keys_quoted),
        cmocka_unit_test(test_object_layout_multiline),
        cmocka_unit_test(test_types_enums_const),
        cmocka_unit_test(test_nullable),
        cmocka_unit_test(test_unions_and_intersections),
        cmocka_unit_test(test_arrays_and_tuples),
        cmocka_unit_test(test_boolean_and_unsupported),
        cmocka_unit_test(test_docs_and_tags),
        cmocka_unit_test(test_comment_escaping),
        cmocka_unit_test(test_original_names),
        cmocka_unit_test(test_ref_used_once_is_inlined),
        cmocka_unit_test(test_ref_used_twice_is_aliased),
        cmocka_unit_test(test_recursive_ref),
        cmocka_unit_test(test_mutual_recursion),
        cmocka_unit_test(test_unguarded_cycles_become_unknown),
        cmocka_unit_test(test_repeated_shapes_are_named_once),
        cmocka_unit_test(test_docs_level_cuts_prose_not_signatures),
        cmocka_unit_test(test_budget_reduces_tool_by_tool),
        cmocka_unit_test(test_budget_keeps_preferred_tools_longest),
        cmocka_unit_test(test_budget_names_only_and_stability),
        cmocka_unit_test(test_token_estimate),
        cmocka_unit_test(test_alias_names),
        cmocka_unit_test(test_full_is_sorted_and_deterministic),
        cmocka_unit_test(test_runtime_declares_the_globals),
        cmocka_unit_test(test_errors_leave_output_unchanged),
        cmocka_unit_test(test_index_and_budget),
        cmocka_unit_test(test_login_only_server),
        cmocka_unit_test(test_summary),
        cmocka_unit_test(test_long_ref_chain),
        cmocka_unit_test(test_huge_object_and_enum),
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_reference_server_fixtures),
        cmocka_unit_test(test_nasty_fixture),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
