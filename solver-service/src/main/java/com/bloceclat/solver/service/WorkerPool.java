package com.bloceclat.solver.service;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.bloceclat.solver.config.SolverConfig;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The searches' threads: a fixed number of long-lived workers (each keeps its engine search tables), with admission
 * and a queue per kind of caller.
 *
 * <p>Guarantees:
 * <ul>
 * <li><b>Separate admission.</b> Each kind of caller has its own permits: service callers {@code workers +
 * service.queue-capacity}, public callers {@code (workers - reserved) + public.queue-capacity}. Past its own permits a
 * kind is refused at once ({@link SaturatedException}); the other kind's permits are never taken, so a public flood
 * can fill only the public share and a service search is always admitted while the services stay within theirs.</li>
 * <li><b>Reserved workers.</b> {@code service.reserved-workers} workers (at most {@code workers - 1}, so public callers
 * always keep one) run service searches only; the others run service searches first, then public ones. Public
 * searches therefore run on at most {@code workers - reserved} threads at once, and a service search waits for other
 * service searches only, never behind a public queue.</li>
 * <li>Within a kind, searches start in the order they were admitted. A task's failure completes its stage
 * exceptionally and frees its permit; it never kills a worker.</li>
 * </ul>
 */
@ApplicationScoped
public class WorkerPool {

    private final int workers;
    private final int reserved;
    private final Map<CallerKind, Share> shares = new EnumMap<>(CallerKind.class);
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition ready = lock.newCondition();
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicInteger active = new AtomicInteger();
    private volatile boolean stopped;

    @Inject
    public WorkerPool(SolverConfig config, MeterRegistry registry) {
        this(config.workers().orElse(Runtime.getRuntime().availableProcessors()),
                config.service().reservedWorkers(), config.service().queueCapacity(),
                config.publicCallers().queueCapacity(), registry);
    }

    WorkerPool(int workers, int reservedWorkers, int serviceQueue, int publicQueue, MeterRegistry registry) {
        if (workers < 1 || reservedWorkers < 0 || serviceQueue < 0 || publicQueue < 0) {
            throw new IllegalArgumentException("bloc.solver.workers must be at least 1, service.reserved-workers and "
                    + "the queue capacities at least 0");
        }
        this.workers = workers;
        this.reserved = Math.min(reservedWorkers, workers - 1);
        shares.put(CallerKind.SERVICE, new Share(workers, serviceQueue));
        shares.put(CallerKind.PUBLIC, new Share(workers - reserved, publicQueue));
        for (int i = 0; i < workers; i++) {
            boolean serviceOnly = i < reserved;
            Thread thread = new Thread(() -> run(serviceOnly), "solver-worker-" + (i + 1));
            thread.setDaemon(true);
            threads.add(thread);
        }
        threads.forEach(Thread::start);

        Gauge.builder("solver.pool.size", () -> workers).description("Search worker threads").register(registry);
        Gauge.builder("solver.pool.reserved", () -> reserved)
                .description("Workers that run service searches only").register(registry);
        Gauge.builder("solver.pool.active", active, AtomicInteger::get)
                .description("Workers searching now").register(registry);
        Gauge.builder("solver.pool.utilisation", active, a -> (double) a.get() / workers)
                .description("Share of the workers searching now, 0 to 1").register(registry);
        shares.forEach((kind, share) -> {
            Gauge.builder("solver.queue.depth", share, s -> s.waiting()).tag("caller", kind.tag())
                    .description("Searches waiting for a worker").register(registry);
            Gauge.builder("solver.queue.capacity", share, s -> s.queueCapacity).tag("caller", kind.tag())
                    .description("Searches that may wait for a worker").register(registry);
            Gauge.builder("solver.admitted", share, Share::admitted).tag("caller", kind.tag())
                    .description("Searches accepted and not finished (running or waiting)").register(registry);
            Gauge.builder("solver.admission.capacity", share, s -> s.capacity).tag("caller", kind.tag())
                    .description("Searches that may be accepted at once").register(registry);
        });
    }

    /**
     * Runs {@code work} on a worker, within {@code caller}'s share.
     *
     * @throws SaturatedException when that share is full (its workers busy and its queue full)
     */
    public <T> CompletionStage<T> submit(CallerKind caller, Supplier<T> work) {
        Share share = shares.get(caller);
        if (stopped || !share.permits.tryAcquire()) {
            throw new SaturatedException();
        }
        CompletableFuture<T> result = new CompletableFuture<>();
        Runnable task = () -> {
            try {
                result.complete(work.get());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            } finally {
                share.permits.release();
            }
        };
        lock.lock();
        try {
            share.queue.add(task);
            ready.signalAll();
        } finally {
            lock.unlock();
        }
        return result;
    }

    /** How many searches of {@code caller} may be accepted at once (its workers plus its queue places). */
    public int capacity(CallerKind caller) {
        return shares.get(caller).capacity;
    }

    /** Searches of {@code caller} accepted and not finished (running or waiting). */
    public int admitted(CallerKind caller) {
        return shares.get(caller).admitted();
    }

    /** Searches of {@code caller} waiting for a worker now. */
    public int waiting(CallerKind caller) {
        return shares.get(caller).waiting();
    }

    /** Worker threads, and how many of them run service searches only. */
    public int workers() {
        return workers;
    }

    public int reservedWorkers() {
        return reserved;
    }

    private void run(boolean serviceOnly) {
        while (true) {
            Runnable task;
            lock.lock();
            try {
                while ((task = next(serviceOnly)) == null) {
                    if (stopped) {
                        return;
                    }
                    ready.awaitUninterruptibly();
                }
            } finally {
                lock.unlock();
            }
            active.incrementAndGet();
            try {
                task.run();
            } finally {
                active.decrementAndGet();
            }
        }
    }

    /** Under the lock: a service search first, then (unless this worker is reserved) a public one. */
    private Runnable next(boolean serviceOnly) {
        Runnable task = shares.get(CallerKind.SERVICE).queue.poll();
        if (task == null && !serviceOnly) {
            task = shares.get(CallerKind.PUBLIC).queue.poll();
        }
        return task;
    }

    @PreDestroy
    void stop() {
        lock.lock();
        try {
            stopped = true;
            ready.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** One kind's admission: permits for its running and waiting searches, and its waiting line. */
    private final class Share {
        final int capacity;
        final int queueCapacity;
        final Semaphore permits;
        final ArrayDeque<Runnable> queue = new ArrayDeque<>();

        Share(int runnable, int queueCapacity) {
            this.capacity = runnable + queueCapacity;
            this.queueCapacity = queueCapacity;
            this.permits = new Semaphore(capacity);
        }

        int admitted() {
            return capacity - permits.availablePermits();
        }

        int waiting() {
            lock.lock();
            try {
                return queue.size();
            } finally {
                lock.unlock();
            }
        }
    }
}
