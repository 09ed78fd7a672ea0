package dev.svc.server.operator;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * An informer's store that keeps of each object only what the operator reads (a projection, a small
 * record) rather than the whole fabric8 object, whose maps, lists and strings cost several KiB per
 * object: with ten thousand sign-ins, three informers would hold tens of MiB. Every read makes a fresh
 * object from the projection, so a caller may change what it gets without touching the cache; such an
 * object lacks what wasn't kept, so nothing read here is ever written back to the API whole.
 *
 * <p>Keys are fabric8's ({@code namespace/name}, or {@code name} for cluster-scoped objects), as the
 * informer expects. The projection must keep {@code metadata.resourceVersion}: the informer compares it.
 *
 * <p><b>Thread safety:</b> thread-safe.
 *
 * @param <T> the kind
 * @param <P> what is kept of one object
 */
final class ProjectedStore<T extends HasMetadata, P> implements ItemStore<T> {

  private final Map<String, P> items = new ConcurrentHashMap<>();
  private final Function<T, P> keep;
  private final BiFunction<String, P, T> restore;

  /**
   * An empty store.
   *
   * @param keep what to keep of an object
   * @param restore an object made from its key and what was kept of it
   */
  ProjectedStore(Function<T, P> keep, BiFunction<String, P, T> restore) {
    this.keep = keep;
    this.restore = restore;
  }

  private T restored(String key, P kept) {
    return kept == null ? null : restore.apply(key, kept);
  }

  @Override
  public String getKey(T object) {
    return Cache.metaNamespaceKeyFunc(object);
  }

  @Override
  public T put(String key, T object) {
    return restored(key, items.put(key, keep.apply(object)));
  }

  @Override
  public T remove(String key) {
    return restored(key, items.remove(key));
  }

  @Override
  public Stream<String> keySet() {
    return items.keySet().stream();
  }

  @Override
  public Stream<T> values() {
    return items.entrySet().stream().map(entry -> restore.apply(entry.getKey(), entry.getValue()));
  }

  @Override
  public int size() {
    return items.size();
  }

  @Override
  public T get(String key) {
    return restored(key, items.get(key));
  }

  /** The name part of a key. */
  static String name(String key) {
    return key.substring(key.indexOf('/') + 1);
  }

  /** The namespace part of a key, or null for a cluster-scoped object. */
  static String namespace(String key) {
    int slash = key.indexOf('/');
    return slash < 0 ? null : key.substring(0, slash);
  }

  /**
   * {@code text}, shared with every equal string kept before: for values that repeat across thousands of
   * objects and come from a small set (roles, periods, kinds, the namespace).
   */
  static String shared(String text) {
    return text == null ? null : text.intern();
  }
}
