/* The runtime globals every program has, as the declarations start with
 * them: error classes, helpers, content. Kept as short as it can be while
 * staying exact, since every model pays for it before its first call. A
 * new global gets its own part in `parts` (in the order a reader meets
 * them); state and skills are declared by tools/state/decl.c, after the
 * tools. */
#include "common/buf.h"
#include "tools/declarations/declarations.h"

#include <errno.h>
#include <string.h>

struct part {
    const char *name; /* what it declares, for readers of this file */
    const char *text; /* complete lines of TypeScript */
};

static const struct part parts[] = {
    {"names",
     "/** Tool names are JS identifiers (get-env: get_env); tools.server[\"get-env\"] works too. "
     "*/\n"},
    {"errors",
     "/** isError results; message is the tool's error text. */\n"
     "declare class ToolError extends Error { tool: string; result: unknown }\n"
     "/** args do not match the schema; nothing was sent. */\n"
     "declare class ToolArgumentError extends Error { tool: string; violations: { path: string; "
     "keyword: string; message: string }[] }\n"
     "/** Refused by policy or not granted; retrying does not help. */\n"
     "declare class ToolPolicyError extends ToolError { decision: \"deny\" | \"not_granted\" }\n"
     "/** A call that \"Needs approval\" was not approved (reason says why). */\n"
     "declare class ToolApprovalError extends ToolError { reason: string }\n"
     "/** The server needs an OAuth login; message names the command to run. */\n"
     "declare class ToolAuthError extends ToolError {}\n"},
    {"helpers",
     "/** By \"server.tool\" (original or sanitised names). */\n"
     "declare function callTool(name: string, args?: object): Promise<unknown>;\n"
     "/** Tools matching a query, best first (\"server.tool\" names). */\n"
     "declare function searchTools(query: string): Promise<{ name: string; summary: string }[]>;\n"
     "/** One tool's whole declaration, every doc included. */\n"
     "declare function describeTool(name: string): Promise<string>;\n"
     "declare function sleep(ms: number): Promise<void>;\n"
     "declare function setTimeout(callback: (...args: any[]) => void, ms?: number, ...args: "
     "any[]): number;\n"
     "declare function clearTimeout(id?: number): void;\n"
     "declare const console: { [level in \"log\" | \"info\" | \"warn\" | \"error\" | "
     "\"debug\"]: (...data: unknown[]) => void };\n"},
    {"content",
     "/** MCP content blocks; data and blob are base64. */\n"
     "declare namespace Content {\n"
     "  type Text = { type: \"text\"; text: string };\n"
     "  type Image = { type: \"image\"; data: string; mimeType: string };\n"
     "  type Audio = { type: \"audio\"; data: string; mimeType: string };\n"
     "  type Resource = { type: \"resource\"; resource: { uri: string; mimeType?: string; text?: "
     "string; blob?: string } };\n"
     "  type ResourceLink = { type: \"resource_link\"; uri: string; name: string; mimeType?: "
     "string };\n"
     "  type Block = Text | Image | Audio | Resource | ResourceLink;\n"
     "}\n"
     "/** Return these (or an array of them) to give the client content blocks. */\n"
     "declare const content: {\n"
     "  text(text: string): Content.Text;\n"
     "  image(data: string | Uint8Array, mimeType: string): Content.Image;\n"
     "  audio(data: string | Uint8Array, mimeType: string): Content.Audio;\n"
     "  resource(r: { uri: string; mimeType?: string; text?: string; blob?: string | Uint8Array "
     "}): Content.Resource;\n"
     "  /** Keeps value as a resource the client can read; resolves to a link to it. */\n"
     "  stash(value: unknown): Promise<Content.ResourceLink>;\n"
     "};\n"
     "/** base64 to a binary string and back (bytes: Uint8Array.fromBase64, bytes.toBase64()). "
     "*/\n"
     "declare function atob(data: string): string;\n"
     "declare function btoa(data: string): string;\n"},
};

int tools_declarations_runtime(struct buf *out)
{
    size_t at = out->len;
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        if (buf_append_str(out, parts[i].text) < 0) {
            out->len = at;
            if (out->data)
                out->data[at] = '\0';
            return -ENOSPC;
        }
    return 0;
}
