/**
 * What the client does with an issued kubeconfig (access-server spec §7.2, decision O5):
 * {@link dev.svc.cli.kubeconfig.KubeconfigMerge} upserts its entries into the user's kubeconfig and
 * switches the context (merge mode, the default), remembering the previous context for sign-out;
 * {@link dev.svc.cli.kubeconfig.SessionFile} writes it to a private temporary file (file mode, and
 * {@code svc shell}); {@link dev.svc.cli.kubeconfig.Shell} says how the user's shell points
 * {@code KUBECONFIG} at such a file, quoted (deviation D22).
 */
package dev.svc.cli.kubeconfig;
