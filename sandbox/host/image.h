/* Which executable the pool starts as the sandbox zygote (image.c). */
#ifndef SANDBOX_HOST_IMAGE_H
#define SANDBOX_HOST_IMAGE_H

/* The executable the sandbox pool starts as its zygote, for a binary at exe:
 * mcp-codemode-sandbox in the same directory when it is there, executable
 * and from the same build (it contains sandbox_build_tag: an image left by
 * an older install is ignored with a warning), else exe itself (which
 * serves `__zygote` too). Returns a new string (free it). */
char *sandbox_image_path(const char *exe);

#endif
