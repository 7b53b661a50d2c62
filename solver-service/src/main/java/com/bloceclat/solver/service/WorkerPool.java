package com.bloceclat.solver.service;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import com.bloceclat.solver.config.SolverConfig;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The searches' threads: a fixed number of long-lived workers (each keeps its engine search tables) behind a
 * bounded queue. When every worker is busy and the queue is full, {@link #submit} refuses at once. Admission is one
 * permit per accepted search (workers plus queue places), so the bound is exact even while a worker is between tasks.
 */
@ApplicationScoped
public class WorkerPool {

    private final ThreadPoolExecutor executor;
    private final int queueCapacity;
    private final Semaphore admitted;

    public WorkerPool(SolverConfig config, MeterRegistry registry) {
        int workers = config.workers().orElse(Runtime.getRuntime().availableProcessors());
        if (workers < 1 || config.queueCapacity() < 1) {
            throw new IllegalArgumentException("bloc.solver.workers and queue-capacity must be at least 1");
        }
        this.queueCapacity = config.queueCapacity();
        this.admitted = new Semaphore(workers + queueCapacity);
        AtomicInteger index = new AtomicInteger();
        executor = new ThreadPoolExecutor(workers, workers, 0, TimeUnit.MILLISECONDS,
                new LinkedBlockingQueue<>(), task -> {
                    Thread thread = new Thread(task, "solver-worker-" + index.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                }, new ThreadPoolExecutor.AbortPolicy());
        executor.prestartAllCoreThreads();

        Gauge.builder("solver.pool.size", executor, ThreadPoolExecutor::getMaximumPoolSize)
                .description("Search worker threads").register(registry);
        Gauge.builder("solver.pool.active", executor, ThreadPoolExecutor::getActiveCount)
                .description("Workers searching now").register(registry);
        Gauge.builder("solver.pool.utilisation", executor,
                e -> (double) e.getActiveCount() / e.getMaximumPoolSize())
                .description("Share of the workers searching now, 0 to 1").register(registry);
        Gauge.builder("solver.queue.depth", executor, e -> e.getQueue().size())
                .description("Searches waiting for a worker").register(registry);
        Gauge.builder("solver.queue.capacity", () -> queueCapacity)
                .description("Searches that may wait for a worker").register(registry);
    }

    /**
     * Runs {@code work} on a worker.
     *
     * @throws SaturatedException when every worker is busy and the queue is full
     */
    public <T> CompletionStage<T> submit(Supplier<T> work) {
        if (!admitted.tryAcquire()) {
            throw new SaturatedException();
        }
        CompletableFuture<T> result = new CompletableFuture<>();
        try {
            executor.execute(() -> {
                try {
                    result.complete(work.get());
                } catch (Throwable e) {
                    result.completeExceptionally(e);
                } finally {
                    admitted.release();
                }
            });
        } catch (RuntimeException e) {
            admitted.release();
            throw e;
        }
        return result;
    }

    /** Workers plus queue places: how many searches may be accepted at once. */
    public int capacity() {
        return executor.getMaximumPoolSize() + queueCapacity;
    }

    @PreDestroy
    void stop() {
        executor.shutdownNow();
    }
}
