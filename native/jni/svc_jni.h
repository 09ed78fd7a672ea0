/*
 * Load-time wiring: JNI_OnLoad caches classes and method IDs (each module's *_load, in order,
 * undone on failure), registers the natives of dev.svc.engine.internal.Native, and self-tests
 * the wasmtime library. A failed self-test does not fail the load: bridgeVersion and
 * loadProblem still work, so the Java loader can report what is wrong in its own words.
 */
#ifndef SVC_JNI_H
#define SVC_JNI_H

/* Bumped whenever a native signature or behaviour the Java side relies on changes;
 * Native.BRIDGE_VERSION must be equal. */
#define SVC_BRIDGE_VERSION 3

/* NULL when the wasmtime library passed the self-test, else why it did not. */
const char *svc_jni_load_problem(void);

#endif /* SVC_JNI_H */
