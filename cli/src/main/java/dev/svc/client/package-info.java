/**
 * The HTTP client of the access server's API (access-server spec §4, §11.1, §11.7): what the
 * {@code svc} user commands call over the mesh.
 *
 * <p>Where things are: {@link dev.svc.client.ServerAddress} builds the base URL from the
 * configuration; {@link dev.svc.client.AccessClient} sends one request and traces it with
 * {@code --debug}; {@link dev.svc.client.KubeconfigPoller} polls for the kubeconfig honouring
 * {@code Retry-After}; {@link dev.svc.client.Problem} is what a failure says (message, advice, root
 * causes), decoded from the server's error bodies by {@link dev.svc.client.ApiError} and thrown as
 * {@link dev.svc.client.ClientException}. Time is read from a {@link java.time.Clock} and waited for
 * through a {@link dev.svc.client.Pause}, so tests never sleep.
 */
package dev.svc.client;
