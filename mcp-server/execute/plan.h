/* The dry run's planned calls (structuredContent.plannedCalls, recorded by
 * tools/gate/) as readable lines: the call, its arguments, and what the
 * policy would do with it for real. Shared by execute_code's text item and
 * `mcp-codemode run --dry-run`. */
#ifndef MCP_SERVER_EXECUTE_PLAN_H
#define MCP_SERVER_EXECUTE_PLAN_H

#include <cjson/cJSON.h>
#include <stddef.h>

struct buf;

/* Appends the heading and one line per call of planned (an array of
 * {tool, arguments, decision, decidedBy}), without a final newline:
 *   dry run: 2 planned calls (validated, not sent):
 *   1. crm.update_item {"id":"a"}: would ask for approval (rule "crm.update_item")
 * Arguments longer than max_argument_bytes of JSON (0: no limit) are cut
 * and end with "...". Values of the wrong type are shown as "?". */
void mcp_plan_append(struct buf *b, const cJSON *planned, size_t max_argument_bytes);

#endif
