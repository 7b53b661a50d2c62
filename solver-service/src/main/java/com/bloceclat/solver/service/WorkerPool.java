package com.bloceclat.solver.service;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import com.bloceclat.solver.config.SolverConfig;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The searches' threads: long-lived workers (each keeps its engine search tables), with admission, a queue and
 * threads of its own per kind of caller.
 *
 * <p>Guarantees:
 * <ul>
 * <li><b>Separate admission.</b> Each kind of caller has its own permits: service callers {@code workers +
 * service.queue-capacity}, public callers {@code (workers - reserved) + public.queue-capacity}. Past its own permits a
 * kind is refused at once ({@link SaturatedException}); the other kind's permits are never taken, so a public flood
 * can fill only the public share and a service search is always admitted while the services stay within theirs.</li>
 * <li><b>Threads of their own.</b> Service searches run on {@code workers} service threads, public searches on
 * {@code workers - reserved} public threads (at least one; {@code reserved} is at most {@code workers - 1}). Neither
 * kind ever runs on, or waits for, the other's threads: a service search waits only for other service searches.</li>
 * <li><b>Public threads at the lowest OS priority.</b> Each public thread lowers itself to {@link
 * Thread#MIN_PRIORITY}; with the JVM options of {@link #PRIORITY_OPTIONS} that is nice 19 on Linux, so a core that a
 * public search holds is taken back by a service search (or the HTTP threads) at once: on a full machine public
 * searches get only what the service callers leave (CFS weight 15 against 1024). Without those options the JVM
 * ignores thread priorities: {@code solver.pool.public.nice} then reads 0 and a warning is logged at start.</li>
 * <li>Within a kind, searches start in the order they were admitted. A task's failure completes its stage
 * exceptionally and frees its permit; it never kills a worker.</li>
 * </ul>
 */
@ApplicationScoped
public class WorkerPool {

    /** The JVM options that make {@link Thread#MIN_PRIORITY} nice 19 and leave every other priority at nice 0. */
    public static final String PRIORITY_OPTIONS = "-XX:ThreadPriorityPolicy=1 -XX:JavaPriority1_To_OSPriority=19 "
            + "-XX:JavaPriority6_To_OSPriority=0 -XX:JavaPriority7_To_OSPriority=0 -XX:JavaPriority8_To_OSPriority=0 "
            + "-XX:JavaPriority9_To_OSPriority=0 -XX:JavaPriority10_To_OSPriority=0";

    private static final Logger LOG = Logger.getLogger(WorkerPool.class);

    private final int workers;
    private final int reserved;
    private final Map<CallerKind, Share> shares = new EnumMap<>(CallerKind.class);
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicInteger active = new AtomicInteger();
    /** The OS nice value the public threads run at (Integer.MIN_VALUE until known, e.g. not Linux). */
    private final AtomicInteger publicNice = new AtomicInteger(Integer.MIN_VALUE);
    private final CountDownLatch publicStarted;
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
        int publicWorkers = workers - reserved;
        shares.put(CallerKind.SERVICE, new Share(workers, serviceQueue));
        shares.put(CallerKind.PUBLIC, new Share(publicWorkers, publicQueue));
        publicStarted = new CountDownLatch(publicWorkers);
        for (int i = 0; i < workers; i++) {
            threads.add(thread("solver-service-worker-" + (i + 1), shares.get(CallerKind.SERVICE), false));
        }
        for (int i = 0; i < publicWorkers; i++) {
            threads.add(thread("solver-public-worker-" + (i + 1), shares.get(CallerKind.PUBLIC), true));
        }
        threads.forEach(Thread::start);
        try {
            publicStarted.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        int nice = publicNice.get();
        if (nice != Integer.MIN_VALUE && nice <= 0) {
            LOG.warnf("Public solver searches run at the same OS priority as service searches (nice %d): the JVM "
                    + "ignores thread priorities unless started with %s", nice, PRIORITY_OPTIONS);
        } else {
            LOG.infof("Solver workers: %d for service callers, %d for public callers at nice %s", workers,
                    publicWorkers, nice == Integer.MIN_VALUE ? "(unknown)" : Integer.toString(nice));
        }

        Gauge.builder("solver.pool.size", () -> workers).description("Search worker threads of service callers")
                .register(registry);
        Gauge.builder("solver.pool.reserved", () -> reserved)
                .description("Service workers minus public workers")
                .register(registry);
        Gauge.builder("solver.pool.active", active, AtomicInteger::get)
                .description("Workers searching now").register(registry);
        int threadCount = workers + publicWorkers; // active counts both kinds, so the share is of both
        Gauge.builder("solver.pool.utilisation", active, a -> (double) a.get() / threadCount)
                .description("Worker threads searching now over all worker threads (service and public), 0 to 1")
                .register(registry);
        Gauge.builder("solver.pool.public.nice", publicNice, n -> n.get() == Integer.MIN_VALUE ? Double.NaN : n.get())
                .description("OS nice value of the public workers (19 = lowest priority; 0 = priorities ignored)")
                .register(registry);
        shares.forEach((kind, share) -> {
            Gauge.builder("solver.pool.workers", () -> share.runnable).tag("caller", kind.tag())
                    .description("Worker threads of this kind of caller").register(registry);
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

    private Thread thread(String name, Share share, boolean lowest) {
        Thread thread = new Thread(() -> {
            if (lowest) {
                Thread.currentThread().setPriority(Thread.MIN_PRIORITY);
                publicNice.set(osNice());
                publicStarted.countDown();
            }
            run(share);
        }, name);
        thread.setDaemon(true);
        return thread;
    }

    /** The calling thread's nice value on Linux ({@code /proc/thread-self/stat}), Integer.MIN_VALUE elsewhere. */
    static int osNice() {
        try {
            String stat = Files.readString(Path.of("/proc/thread-self/stat"));
            return Integer.parseInt(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[16]);
        } catch (IOException | RuntimeException e) {
            return Integer.MIN_VALUE;
        }
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
        share.lock.lock();
        try {
            share.queue.add(task);
            share.ready.signal();
        } finally {
            share.lock.unlock();
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

    /** Service worker threads, and how many fewer public ones there are. */
    public int workers() {
        return workers;
    }

    public int reservedWorkers() {
        return reserved;
    }

    /** The public workers' OS nice value (19 when priorities apply), Integer.MIN_VALUE when unknown. */
    public int publicNice() {
        return publicNice.get();
    }

    private void run(Share share) {
        while (true) {
            Runnable task;
            share.lock.lock();
            try {
                while ((task = share.queue.poll()) == null) {
                    if (stopped) {
                        return;
                    }
                    share.ready.awaitUninterruptibly();
                }
            } finally {
                share.lock.unlock();
            }
            active.incrementAndGet();
            try {
                task.run();
            } finally {
                active.decrementAndGet();
            }
        }
    }

    @PreDestroy
    void stop() {
        stopped = true;
        for (Share share : shares.values()) {
            share.lock.lock();
            try {
                share.ready.signalAll();
            } finally {
                share.lock.unlock();
            }
        }
    }

    /** One kind's admission: permits for its running and waiting searches, its waiting line and its threads' signal. */
    private static final class Share {
        final int runnable;
        final int capacity;
        final int queueCapacity;
        final Semaphore permits;
        final ArrayDeque<Runnable> queue = new ArrayDeque<>();
        final ReentrantLock lock = new ReentrantLock();
        final Condition ready = lock.newCondition();

        Share(int runnable, int queueCapacity) {
            this.runnable = runnable;
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
