package com.bloceclat.game.service;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionSynchronizationRegistry;

/**
 * The games the current transaction appends to ({@link GameLog#append}), kept among the transaction's resources: a
 * state read from events that include this transaction's own is cached only once it commits, one read from committed
 * events at once ({@link GameLog#current}). Outside a transaction nothing is appended.
 */
@ApplicationScoped
class Appends {

    /** The key of the set among the transaction's resources. */
    private static final Object KEY = new Object();

    @Inject
    TransactionSynchronizationRegistry transaction;

    /** Notes that this transaction appends to the game. */
    @SuppressWarnings("unchecked")
    void add(UUID id) {
        if (transaction.getTransactionKey() == null) {
            return;
        }
        Set<UUID> appended = (Set<UUID>) transaction.getResource(KEY);
        if (appended == null) {
            appended = new HashSet<>(2);
            transaction.putResource(KEY, appended);
        }
        appended.add(id);
    }

    /** Whether this transaction has appended to the game: its events read now include uncommitted ones. */
    boolean has(UUID id) {
        if (transaction.getTransactionKey() == null) {
            return false;
        }
        Set<?> appended = (Set<?>) transaction.getResource(KEY);
        return appended != null && appended.contains(id);
    }
}
