/* A saved skill's code (the body of an async function receiving `args`),
 * lowered as the function the worker compiles. One wrapper for every place
 * that checks or runs a skill (skills.save in a program, calling a skill,
 * `mcp-codemode skills save`), so that all of them report an error at the
 * same line and column of the skill's own code. */
#ifndef SANDBOX_LOWER_SKILL_H
#define SANDBOX_LOWER_SKILL_H

#include "sandbox/lower/lower.h"

#include <stddef.h>

/* The lowered function's lines are the code's lines plus this one: line
 * n + SANDBOX_SKILL_LINE_OFFSET of the output is line n of the code (for
 * run-time errors of the compiled skill). */
#define SANDBOX_SKILL_LINE_OFFSET 1

/* Lowers code (len bytes) as `(async function skill_<name>(args) { code })`
 * (LOWER_MODE_EVAL) and appends the ES5 expression to out. name must be an
 * identifier of at most 64 bytes (as skills.save checks; otherwise the
 * function is anonymous). Returns 0, or -1 with *err at the skill's own line
 * and column, its excerpt from the code (an error past the end of the code,
 * such as a missing `}`, is put after its last character). err may be NULL. */
int sandbox_lower_skill(const char *name, const char *code, size_t len, struct buf *out,
                        struct lower_error *err);

#endif
