package com.bloceclat.game.service;

import jakarta.persistence.EntityManager;

/**
 * PostgreSQL advisory locks on a text key, held until the caller's transaction ends: what serialises one client's
 * starts ({@link ClientLimits}) and one player's private race links ({@link PrivateRaceService}). The key is hashed to
 * 64 bits ({@code hashtextextended}), so keys of different kinds do not meet in practice.
 */
final class AdvisoryLocks {

    private static final String KEY = "hashtextextended(:key, 0)";

    private AdvisoryLocks() {
    }

    /** Waits for the lock of {@code key}. */
    static void await(EntityManager em, String key) {
        em.createNativeQuery("SELECT pg_advisory_xact_lock(" + KEY + ")").setParameter("key", key).getSingleResult();
    }

    /** Takes the lock of {@code key} if it is free; answers whether it did, never waiting. */
    static boolean tryTake(EntityManager em, String key) {
        return (Boolean) em.createNativeQuery("SELECT pg_try_advisory_xact_lock(" + KEY + ")").setParameter("key", key)
                .getSingleResult();
    }
}
