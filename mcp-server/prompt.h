/* The terminal prompt of `mcp-codemode run`: questions asked one at a time
 * on /dev/tty ("[y]es / [n]o / [a]ll"), answers read without blocking the
 * loop (uv_tty), reading only while a question is pending so the loop can
 * end. Used to approve `ask` tools when a developer runs a program locally. */
#ifndef MCP_SERVER_PROMPT_H
#define MCP_SERVER_PROMPT_H

#include <uv.h>

struct mcp_prompt;

/* The answer: 'y', 'n', 'a', or 0 (the terminal closed or failed). */
typedef void mcp_prompt_cb(void *ud, int answer);

/* Opens /dev/tty. Returns NULL when the process has no terminal. */
struct mcp_prompt *mcp_prompt_open(uv_loop_t *loop);

/* Closes the terminal; questions still queued are answered 0 first. The
 * handle is freed once the loop ran its close callback. NULL is fine. */
void mcp_prompt_close(struct mcp_prompt *p);

/* Queues a question (copied); cb runs once with the answer, from the loop,
 * unless mcp_prompt_cancel is called first. Returns the handle. */
void *mcp_prompt_ask(struct mcp_prompt *p, const char *question, mcp_prompt_cb *cb, void *ud);

/* Forgets a queued or current question; its callback never runs. */
void mcp_prompt_cancel(struct mcp_prompt *p, void *handle);

#endif
