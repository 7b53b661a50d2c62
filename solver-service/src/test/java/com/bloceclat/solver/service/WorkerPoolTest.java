package com.bloceclat.solver.service;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/** The pool's shares as docs/solver-service.md states them, on a pool of the test's own (SaturationTest: in the service). */
class WorkerPoolTest {

    @Test
    void reservedWorkersAreCappedSoThatPublicCallersAlwaysKeepAThread() throws Exception {
        WorkerPool pool = new WorkerPool(1, 1, 0, 3, new SimpleMeterRegistry());
        try {
            assertEquals(0, pool.reservedWorkers(), "a one-worker pool reserves none of it");
            assertEquals(1 + 3, pool.capacity(CallerKind.PUBLIC), "one public thread and its queue");
            assertEquals("searched", pool.submit(CallerKind.PUBLIC, () -> "searched").toCompletableFuture()
                    .get(10, TimeUnit.SECONDS), "a public search runs");
        } finally {
            pool.stop();
        }
        WorkerPool four = new WorkerPool(4, 9, 2, 2, new SimpleMeterRegistry());
        try {
            assertEquals(3, four.reservedWorkers(), "at most workers - 1");
            assertEquals(1 + 2, four.capacity(CallerKind.PUBLIC));
            assertEquals(4 + 2, four.capacity(CallerKind.SERVICE));
        } finally {
            four.stop();
        }
    }
}
