package dev.svc.server.operator;

import dev.svc.server.kube.SvcSignin;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * The operator's loop (access-server spec §6.2): informers on the sign-ins of {@code operator.namespace}
 * and on the ServiceAccounts and ClusterRoleBindings svc made, a {@link WorkQueue} of sign-in names,
 * and worker threads that reconcile them. Informer callbacks only queue a name: the sign-in's own, or
 * the owner of a deleted dependent, so a ServiceAccount or binding deleted by hand comes back. Each
 * reconcile says when to come back (at {@code valid_until}); failures come back with back-off; every
 * cached sign-in is reconciled again each {@code resyncEvery}, and orphaned bindings are swept at start
 * and each {@code sweepEvery}.
 *
 * <p>{@link #start()} blocks until the caches have synced; call it on a worker thread, never an event
 * loop. Reconciles run on the controller's own threads.
 *
 * <p><b>Thread safety:</b> thread-safe; start once, close once.
 */
public final class SigninController implements AutoCloseable {

  private static final Logger LOG = System.getLogger(SigninController.class.getName());
  private static final Duration SYNC_TIMEOUT = Duration.ofMinutes(2);
  private static final AttributeKey<String> NAME = AttributeKey.stringKey("reconcile.name");
  private static final AttributeKey<String> NAMESPACE = AttributeKey.stringKey("reconcile.namespace");
  private static final AttributeKey<String> OPERATION = AttributeKey.stringKey("reconcile.operation");
  private static final AttributeKey<Boolean> SUCCESS = AttributeKey.booleanKey("reconcile.success");
  private static final AttributeKey<Long> DURATION_MS = AttributeKey.longKey("reconcile.duration_ms");
  private static final AttributeKey<Long> REQUEUE_MS = AttributeKey.longKey("reconcile.requeue_in_ms");

  private final KubernetesClient client;
  private final OperatorSettings settings;
  private final Clock clock;
  private final Scheduler scheduler;
  private final OperatorMetrics metrics;
  private final Tracer tracer;
  private final WorkQueue queue;
  private final List<Thread> workers = new ArrayList<>();
  private final List<Scheduler.Scheduled> timers = new ArrayList<>();
  private volatile SharedIndexInformer<SvcSignin> signins;
  private volatile SharedIndexInformer<ServiceAccount> accounts;
  private volatile SharedIndexInformer<ClusterRoleBinding> bindings;
  private volatile SigninReconciler reconciler;
  private volatile boolean synced;
  private volatile boolean closed;

  /**
   * A controller, not started.
   *
   * @param client the Kubernetes API
   * @param settings namespace, allowed roles, workers and periods
   * @param clock the time sessions are measured against
   * @param scheduler runs requeues, retries, resyncs and sweeps
   * @param metrics the operator's meters
   * @param tracer makes a {@code SvcOperator.Reconcile} span per reconcile
   */
  public SigninController(KubernetesClient client, OperatorSettings settings, Clock clock, Scheduler scheduler,
      OperatorMetrics metrics, Tracer tracer) {
    this.client = client;
    this.settings = settings;
    this.clock = clock;
    this.scheduler = scheduler;
    this.metrics = metrics;
    this.tracer = tracer;
    this.queue = new WorkQueue(clock, scheduler, settings.backoffBase(), settings.backoffMax());
  }

  /**
   * Starts the informers, waits for their caches, sweeps orphaned bindings, and starts the workers.
   *
   * @throws IllegalStateException if the caches don't sync within two minutes or the wait is interrupted
   */
  public synchronized void start() {
    String namespace = settings.namespace();
    // The caches keep only what the reconciler reads (ProjectedStore) and no namespace index (one namespace).
    signins = client.resources(SvcSignin.class).inNamespace(namespace).runnableInformer(0)
        .itemStore(new ProjectedStore<>(KeptSignin::of, (key, kept) -> kept.restore(key)))
        .removeNamespaceIndex();
    signins.addEventHandler(new ResourceEventHandler<>() {
      @Override
      public void onAdd(SvcSignin signin) {
        changed(signin);
      }

      @Override
      public void onUpdate(SvcSignin before, SvcSignin after) {
        if (!ownStatusWrite(before, after)) {
          changed(after);
        }
      }

      @Override
      public void onDelete(SvcSignin signin, boolean finalStateUnknown) {
        queue.add(signin.getMetadata().getName());
      }
    });
    accounts = client.serviceAccounts().inNamespace(namespace)
        .withLabel(SigninReconciler.MANAGED_BY, SigninReconciler.MANAGER).runnableInformer(0)
        .itemStore(new ProjectedStore<>(KeptServiceAccount::of, (key, kept) -> kept.restore(key)))
        .removeNamespaceIndex();
    accounts.addEventHandler(handler(account -> {}, this::queueOwner));
    bindings = client.rbac().clusterRoleBindings()
        .withLabel(SigninReconciler.MANAGED_BY, SigninReconciler.MANAGER).runnableInformer(0)
        .itemStore(new ProjectedStore<>(KeptBinding::of, (key, kept) -> kept.restore(key)))
        .removeNamespaceIndex();
    bindings.addEventHandler(handler(binding -> {}, this::queueOwner));
    reconciler = new SigninReconciler(client, namespace, settings.allowedRoles(), clock, cached(),
        new WarningEvents(client, namespace, clock), metrics);
    metrics.cache(() -> signins.getStore().list());
    metrics.queue(queue::depth);
    awaitSynced(CompletableFuture.allOf(signins.start().toCompletableFuture(),
        accounts.start().toCompletableFuture(), bindings.start().toCompletableFuture()));
    sweep();
    timers.add(every(settings.resyncEvery(), this::resync));
    timers.add(every(settings.sweepEvery(), this::sweep));
    for (int i = 0; i < settings.workers(); i++) {
      Thread worker = new Thread(this::work, "svc-operator-" + i);
      worker.setDaemon(true);
      worker.start();
      workers.add(worker);
    }
    synced = true;
    LOG.log(Level.INFO, "operator reconciling the sign-ins of namespace " + namespace + " with "
        + settings.workers() + " workers");
  }

  private static void awaitSynced(CompletableFuture<Void> started) {
    try {
      started.get(SYNC_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while the operator's caches synced", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("the operator's watches didn't start: " + e.getMessage()
          + "; check that svc's service account may list and watch svcsignins, serviceaccounts and"
          + " clusterrolebindings (conf/kubernetes/rbac.yaml)", e);
    }
  }

  /**
   * Whether the caches have synced and the workers run: the operator's part of readiness.
   *
   * @return true once started, until closed
   */
  public boolean synced() {
    return synced && !closed;
  }

  /** Queues every cached sign-in. */
  void resync() {
    signins.getStore().listKeys().forEach(key -> queue.add(key.substring(key.indexOf('/') + 1)));
  }

  /** Sweeps orphaned bindings; a failure is logged and the next sweep tries again. */
  void sweep() {
    try {
      int deleted = reconciler.sweepOrphans();
      if (deleted > 0) {
        LOG.log(Level.INFO, "deleted " + deleted + " ClusterRoleBindings whose sign-in is gone");
      }
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "the sweep for orphaned bindings failed, trying again in " + settings.sweepEvery()
          + ": " + e.getMessage());
    }
  }

  /**
   * Whether no name waits for or is in a reconcile (timed requeues may still come): for tests and
   * benchmarks that wait for the operator to settle.
   *
   * @return true when idle
   */
  public boolean idle() {
    return queue.idle();
  }

  private Scheduler.Scheduled every(Duration period, Runnable task) {
    return scheduler.scheduleAt(clock.instant().plus(period), () -> {
      if (!closed) {
        task.run();
        synchronized (this) {
          if (!closed) {
            timers.add(every(period, task));
          }
        }
      }
    });
  }

  private void work() {
    try {
      for (Optional<String> name = queue.take(); name.isPresent(); name = queue.take()) {
        try {
          reconcileTraced(name.get());
        } finally {
          queue.done(name.get());
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @SuppressWarnings("try") // the scope makes the span current for the reconciler's span events
  private void reconcileTraced(String name) {
    long started = System.nanoTime();
    Span span = tracer.spanBuilder("SvcOperator.Reconcile")
        .setAttribute(NAME, name)
        .setAttribute(NAMESPACE, settings.namespace())
        .startSpan();
    boolean ended = false;
    try (Scope scope = span.makeCurrent()) {
      Outcome outcome = reconciler.reconcile(name);
      ended = outcome.operation().endsSignin();
      queue.forget(name);
      outcome.requeue().ifPresentOrElse(at -> queue.addAt(name, at), () -> queue.cancelDelayed(name));
      span.setAttribute(OPERATION, outcome.operation().attribute());
      span.setAttribute(SUCCESS, true);
      span.setAttribute(REQUEUE_MS, outcome.requeue()
          .map(at -> Math.max(0, Duration.between(clock.instant(), at).toMillis())).orElse(0L));
    } catch (RuntimeException e) {
      Duration retry = queue.retryLater(name);
      metrics.failed();
      span.setAttribute(SUCCESS, false);
      span.setAttribute(REQUEUE_MS, retry.toMillis());
      span.recordException(e);
      span.setStatus(StatusCode.ERROR, e.getMessage());
      LOG.log(Level.WARNING, "reconciling sign-in " + name + " failed, trying again in " + retry + ": "
          + e.getMessage());
    } finally {
      Duration took = Duration.ofNanos(System.nanoTime() - started);
      metrics.reconciled(name, took);
      if (ended) {
        metrics.forget(name);
      }
      span.setAttribute(DURATION_MS, took.toMillis());
      span.end();
    }
  }

  private void changed(SvcSignin signin) {
    if (signin.getSpec() != null && signin.getSpec().role() != null) {
      metrics.knowRole(signin.getSpec().role());
    }
    queue.add(signin.getMetadata().getName());
  }

  /**
   * Whether nothing the reconciler reads changed but the status, to provisioned: the operator's own write,
   * which needs no second reconcile (a status changed by hand is met by the next resync).
   */
  private static boolean ownStatusWrite(SvcSignin before, SvcSignin after) {
    return Objects.equals(before.getSpec(), after.getSpec())
        && Objects.equals(KeptSignin.lastAttempted(before), KeptSignin.lastAttempted(after))
        && Objects.equals(before.getMetadata().getDeletionTimestamp(), after.getMetadata().getDeletionTimestamp())
        && after.getStatus() != null && after.getStatus().provisioned();
  }

  /** Queues the sign-in a deleted ServiceAccount or binding belonged to. */
  private void queueOwner(HasMetadata dependent) {
    Map<String, String> labels = dependent.getMetadata().getLabels();
    if (labels != null && labels.get(SigninReconciler.SIGNIN_LABEL) != null) {
      queue.add(labels.get(SigninReconciler.SIGNIN_LABEL));
    }
  }

  private Observed cached() {
    String namespace = settings.namespace();
    return new Observed() {
      @Override
      public Optional<SvcSignin> signin(String name) {
        return Optional.ofNullable(signins.getStore().getByKey(namespace + "/" + name));
      }

      @Override
      public Optional<ServiceAccount> serviceAccount(String name) {
        return Optional.ofNullable(accounts.getStore().getByKey(namespace + "/" + name));
      }

      @Override
      public Optional<ClusterRoleBinding> binding(String name) {
        return Optional.ofNullable(bindings.getStore().getByKey(name));
      }
    };
  }

  // Each read is a fresh object made from what the cache kept (ProjectedStore): the reconciler may change it.
  private static <T> ResourceEventHandler<T> handler(Consumer<T> changed, Consumer<T> deleted) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(T object) {
        changed.accept(object);
      }

      @Override
      public void onUpdate(T before, T after) {
        changed.accept(after);
      }

      @Override
      public void onDelete(T object, boolean finalStateUnknown) {
        deleted.accept(object);
      }
    };
  }

  /** Stops the workers, the timers and the informers; reconciles in flight finish first. */
  @Override
  public void close() {
    List<Thread> running;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      timers.forEach(Scheduler.Scheduled::cancel);
      timers.clear();
      queue.shutDown();
      running = List.copyOf(workers);
    }
    for (Thread worker : running) {
      try {
        worker.join(SYNC_TIMEOUT.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    for (SharedIndexInformer<?> informer : new SharedIndexInformer<?>[] {signins, accounts, bindings}) {
      if (informer != null) {
        informer.stop();
      }
    }
  }
}
