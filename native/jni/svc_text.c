/* UTF-8 conversions; see svc_text.h. */
#include "svc_text.h"

#include <stdlib.h>

#define SVC_REPLACEMENT 0xFFFDu

/* Decodes one code point at s[*i] (advancing *i); invalid input yields U+FFFD. */
static uint32_t decode_one(const uint8_t *s, size_t len, size_t *i) {
    uint8_t b0 = s[*i];
    size_t need;
    uint32_t cp, min;
    if (b0 < 0x80) {
        (*i)++;
        return b0;
    } else if ((b0 & 0xE0) == 0xC0) {
        need = 1, cp = b0 & 0x1F, min = 0x80;
    } else if ((b0 & 0xF0) == 0xE0) {
        need = 2, cp = b0 & 0x0F, min = 0x800;
    } else if ((b0 & 0xF8) == 0xF0) {
        need = 3, cp = b0 & 0x07, min = 0x10000;
    } else {
        (*i)++;
        return SVC_REPLACEMENT;
    }
    size_t j = *i + 1;
    for (size_t k = 0; k < need; k++, j++) {
        if (j >= len || (s[j] & 0xC0) != 0x80) {
            *i = j;
            return SVC_REPLACEMENT;
        }
        cp = (cp << 6) | (s[j] & 0x3F);
    }
    *i = j;
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return SVC_REPLACEMENT;
    return cp;
}

jstring svc_text_new_string(JNIEnv *env, const uint8_t *utf8, size_t len) {
    jchar small[256] = {0};
    /* At most one UTF-16 unit per input byte. */
    jchar *units = len <= sizeof small / sizeof small[0] ? small : malloc(len * sizeof(jchar));
    if (!units) {
        jclass oom = (*env)->FindClass(env, "java/lang/OutOfMemoryError");
        if (oom) (*env)->ThrowNew(env, oom, "no native memory to convert a message");
        return NULL;
    }
    size_t n = 0;
    for (size_t i = 0; i < len;) {
        uint32_t cp = decode_one(utf8, len, &i);
        if (cp >= 0x10000) {
            cp -= 0x10000;
            units[n++] = (jchar)(0xD800 + (cp >> 10));
            units[n++] = (jchar)(0xDC00 + (cp & 0x3FF));
        } else {
            units[n++] = (jchar)cp;
        }
    }
    jstring result = (*env)->NewString(env, units, (jsize)n);
    if (units != small) free(units);
    return result;
}

char *svc_text_to_utf8(JNIEnv *env, jstring text) {
    jsize len = (*env)->GetStringLength(env, text);
    const jchar *units = (*env)->GetStringCritical(env, text, NULL);
    if (!units) return NULL;
    char *out = malloc((size_t)len * 3 + 1);
    if (!out) {
        (*env)->ReleaseStringCritical(env, text, units);
        jclass oom = (*env)->FindClass(env, "java/lang/OutOfMemoryError");
        if (oom) (*env)->ThrowNew(env, oom, "no native memory to convert a string");
        return NULL;
    }
    size_t n = 0;
    for (jsize i = 0; i < len; i++) {
        uint32_t cp = units[i];
        if (cp >= 0xD800 && cp <= 0xDBFF && i + 1 < len && units[i + 1] >= 0xDC00 &&
            units[i + 1] <= 0xDFFF) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (units[i + 1] - 0xDC00);
            i++;
        } else if (cp >= 0xD800 && cp <= 0xDFFF) {
            cp = SVC_REPLACEMENT;
        }
        if (cp < 0x80) {
            out[n++] = (char)cp;
        } else if (cp < 0x800) {
            out[n++] = (char)(0xC0 | (cp >> 6));
            out[n++] = (char)(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out[n++] = (char)(0xE0 | (cp >> 12));
            out[n++] = (char)(0x80 | ((cp >> 6) & 0x3F));
            out[n++] = (char)(0x80 | (cp & 0x3F));
        } else {
            out[n++] = (char)(0xF0 | (cp >> 18));
            out[n++] = (char)(0x80 | ((cp >> 12) & 0x3F));
            out[n++] = (char)(0x80 | ((cp >> 6) & 0x3F));
            out[n++] = (char)(0x80 | (cp & 0x3F));
        }
    }
    out[n] = '\0';
    (*env)->ReleaseStringCritical(env, text, units);
    return out;
}
