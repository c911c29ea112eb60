/* The TypeScript of resources.* and prompts.* (docs/javascript.md): the
 * servers that offer them as a union of string literals, the MCP shapes of
 * a resource, a template and a prompt, and what a read gives a program
 * (text as a string, binary data as a content block of `Content`). */
#include "tools/declarations/resources.h"
#include "common/buf.h"
#include "common/json.h"

#include <string.h>

static const char resources_types[] =
    "declare namespace Resources {\n"
    "  type Annotations = { audience?: Array<\"user\" | \"assistant\">; priority?: number; "
    "lastModified?: string };\n"
    "  type Resource = { uri: string; name: string; title?: string; description?: string; "
    "mimeType?: string; size?: number; annotations?: Annotations };\n"
    "  /** uriTemplate is an RFC 6570 template: fill it in and read the uri. */\n"
    "  type Template = { uriTemplate: string; name: string; title?: string; description?: "
    "string; mimeType?: string; annotations?: Annotations };\n"
    "  /** One item of a resource's contents: text as a string, binary data as a content "
    "block (return it as it is to give the client an image). */\n"
    "  type Value = string | Content.Image | Content.Audio | Content.Resource;\n";

static const char resources_api[] =
    "/** The resources of the downstream servers that offer them. Each call counts as a tool "
    "call; policy rules name them \"<server>.resources/list\", "
    "\"<server>.resources/templates/list\", \"<server>.resources/read\". Failures (unknown "
    "server or resource) throw ToolError. */\n"
    "declare const resources: {\n"
    "  /** The server's resources: every page, or the one page at options.cursor "
    "(nextCursor: more remain). */\n"
    "  list(server: Resources.Server, options?: { cursor?: string }): Promise<{ resources: "
    "Resources.Resource[]; nextCursor?: string }>;\n"
    "  templates(server: Resources.Server, options?: { cursor?: string }): Promise<{ "
    "resourceTemplates: Resources.Template[]; nextCursor?: string }>;\n"
    "  /** A resource's contents: one item as it is, several as an array. uri may be a "
    "resource_link a tool returned. The server: options.server, else the one whose tool "
    "returned the uri in this execution, else the only server with resources. */\n"
    "  read(uri: string | { uri: string }, options?: { server?: Resources.Server }): "
    "Promise<Resources.Value | Resources.Value[]>;\n"
    "};\n";

static const char prompts_types[] =
    "declare namespace Prompts {\n"
    "  type Prompt = { name: string; title?: string; description?: string; arguments?: "
    "Array<{ name: string; title?: string; description?: string; required?: boolean }> };\n"
    "  type Message = { role: \"user\" | \"assistant\"; content: Content.Block };\n";

static const char prompts_api[] =
    "/** The prompts of the downstream servers that offer them. Each call counts as a tool "
    "call; policy rules name them \"<server>.prompts/list\", \"<server>.prompts/get\". */\n"
    "declare const prompts: {\n"
    "  /** The server's prompts: every page, or the one page at options.cursor. */\n"
    "  list(server: Prompts.Server, options?: { cursor?: string }): Promise<{ prompts: "
    "Prompts.Prompt[]; nextCursor?: string }>;\n"
    "  /** The prompt's messages, its arguments filled in (args: the prompt's argument names "
    "and string values). */\n"
    "  get(server: Prompts.Server, name: string, args?: Record<string, string>): Promise<{ "
    "description?: string; messages: Prompts.Message[] }>;\n"
    "};\n";

/* "  type Server = "a" | "b";" */
static void servers_type(const char *const *names, size_t n, struct buf *out)
{
    buf_append_str(out, "  /** The servers that offer them. */\n  type Server = ");
    for (size_t i = 0; i < n; i++) {
        if (i)
            buf_append_str(out, " | ");
        json_append_string(out, names[i], strlen(names[i]));
    }
    buf_append_str(out, ";\n}\n");
}

void tools_declarations_resources(const char *const *res, size_t nres, const char *const *prompts,
                                  size_t nprompts, struct buf *out)
{
    if (nres > 0) {
        buf_append_str(out, resources_types);
        servers_type(res, nres, out);
        buf_append_str(out, resources_api);
    }
    if (nprompts > 0) {
        buf_append_str(out, prompts_types);
        servers_type(prompts, nprompts, out);
        buf_append_str(out, prompts_api);
    }
}
