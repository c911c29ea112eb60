/* The build tag of sandbox/ipc.h: the same bytes in mcp-codemode and in
 * mcp-codemode-sandbox when they come from one build. */
#include "sandbox/ipc.h"

const char sandbox_build_tag[] = "mcp-codemode sandbox build " __DATE__ " " __TIME__;
