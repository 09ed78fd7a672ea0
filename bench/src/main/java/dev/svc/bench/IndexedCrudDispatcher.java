package dev.svc.bench;

import static io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor.NAME;
import static io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor.NAMESPACE;
import static io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor.PLURAL;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.MockResponse;
import java.net.HttpURLConnection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * fabric8's CRUD mock API with an index by resource, namespace and name: the stock dispatcher scans
 * every stored object on every request (a linear {@code HashMap.containsValue} per object), so with a
 * few thousand objects the mock, not the client, sets the pace. This one answers a named read, and the
 * look-up a create or update makes, from the index; lists, watches and deletes still scan, as the stock
 * one does. The objects, answers and watch events are the stock dispatcher's own.
 *
 * <p>The benchmarks use it to measure what the operator itself costs (and to fill the API with ten
 * thousand sign-ins in seconds rather than minutes); the headline rate stays the stock mock's.
 */
final class IndexedCrudDispatcher extends KubernetesCrudDispatcher {

  // INVARIANT: holds exactly the keys of map, by indexKey; processEvent is the only writer of both.
  private final Map<String, AttributeSet> index = new ConcurrentHashMap<>();

  private KubernetesAttributesExtractor extractor() {
    return (KubernetesAttributesExtractor) attributeExtractor;
  }

  private static String indexKey(AttributeSet attributes) {
    return value(attributes, PLURAL) + "/" + value(attributes, NAMESPACE) + "/" + value(attributes, NAME);
  }

  private static String value(AttributeSet attributes, String key) {
    Attribute attribute = attributes.getAttribute(key);
    return attribute == null || attribute.getValues().isEmpty() ? "" : attribute.getValues().get(0).toString();
  }

  private boolean named(AttributeSet query) {
    return query.containsKey(NAME) && query.containsKey(PLURAL);
  }

  @Override
  public Map.Entry<AttributeSet, String> findResource(AttributeSet attributes) {
    if (!named(attributes)) {
      return super.findResource(attributes);
    }
    AttributeSet key = index.get(indexKey(attributes));
    String body = key == null ? null : map.get(key);
    return body != null && key.matches(attributes) ? Map.entry(key, body) : null;
  }

  @Override
  public MockResponse handleGet(String path) {
    AttributeSet query = attributeExtractor.fromPath(path);
    if (path.contains("watch=") || !named(query)) {
      return super.handleGet(path);
    }
    Map.Entry<AttributeSet, String> found = findResource(query);
    return found == null
        ? new MockResponse().setResponseCode(HttpURLConnection.HTTP_NOT_FOUND)
        : new MockResponse().setResponseCode(HttpURLConnection.HTTP_OK).setBody(found.getValue());
  }

  @Override
  public void processEvent(String path, AttributeSet pathAttributes, AttributeSet oldAttributes,
      GenericKubernetesResource resource, String newState) {
    super.processEvent(path, pathAttributes, oldAttributes, resource, newState);
    if (oldAttributes != null) {
      index.remove(indexKey(oldAttributes));
    }
    if (newState != null) {
      // The key the stock dispatcher stored the new state under, computed as it does.
      AttributeSet stored = resource != null ? extractor().extract(resource) : extractor().fromResource(newState);
      if (!stored.containsKey(PLURAL)) {
        stored = AttributeSet.merge(pathAttributes, stored);
      }
      index.put(indexKey(stored), stored);
    }
  }
}
