package com.bloceclat.game;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * A PostgreSQL advisory lock of a key held by a transaction of the test's own, as by a request of the same client
 * that takes long, until closed (at most 30 s): the lock the service takes with {@code AdvisoryLocks}.
 */
final class HeldLock implements AutoCloseable {

    private final CountDownLatch release = new CountDownLatch(1);
    private final Thread holder;

    /** Takes the lock in a transaction of its own, and answers once it is held. */
    HeldLock(String key) throws InterruptedException {
        CountDownLatch held = new CountDownLatch(1);
        holder = new Thread(() -> QuarkusTransaction.requiringNew().run(() -> {
            GameEntity.getEntityManager().createNativeQuery("SELECT pg_advisory_xact_lock(hashtextextended(:key, 0))")
                    .setParameter("key", key).getSingleResult();
            held.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        holder.start();
        assertTrue(held.await(10, TimeUnit.SECONDS), "the lock of " + key + " held");
    }

    /** Ends the transaction, which lets the lock go. */
    @Override
    public void close() throws InterruptedException {
        release.countDown();
        holder.join(10_000);
    }
}
