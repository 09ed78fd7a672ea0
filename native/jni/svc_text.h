/*
 * UTF-8 <-> Java strings. JNI's *StringUTF* functions speak "modified UTF-8" (NUL as two bytes,
 * supplementary characters as surrogate pairs), which would corrupt the NUL-separated import
 * and export descriptors and any non-BMP character in wasmtime's messages or in file paths,
 * so the bridge converts standard UTF-8 itself.
 */
#ifndef SVC_TEXT_H
#define SVC_TEXT_H

#include <jni.h>
#include <stddef.h>
#include <stdint.h>

/* A new local-ref String from UTF-8 bytes (invalid sequences become U+FFFD); NULL with a
 * pending OutOfMemoryError on failure. */
jstring svc_text_new_string(JNIEnv *env, const uint8_t *utf8, size_t len);

/* A NUL-terminated UTF-8 copy of text; the caller frees it with free(). NULL with a pending
 * exception on failure. */
char *svc_text_to_utf8(JNIEnv *env, jstring text);

#endif /* SVC_TEXT_H */
