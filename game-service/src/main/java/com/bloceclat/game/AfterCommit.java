package com.bloceclat.game;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;

/** Work done once the current transaction has committed, never when it rolls back. */
@ApplicationScoped
public class AfterCommit {

    @Inject
    TransactionSynchronizationRegistry transactions;

    /** Whether a transaction is active on this thread (else work registered now would never run). */
    public boolean inTransaction() {
        return transactions.getTransactionKey() != null
                && transactions.getTransactionStatus() == Status.STATUS_ACTIVE;
    }

    /** Runs {@code work} after the current transaction commits. */
    public void run(Runnable work) {
        transactions.registerInterposedSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {
            }

            @Override
            public void afterCompletion(int status) {
                if (status == Status.STATUS_COMMITTED) {
                    work.run();
                }
            }
        });
    }

    /** As {@link #run}, once per transaction for {@code key} however often it is asked. */
    public void once(Object key, Runnable work) {
        if (transactions.getResource(key) == null) {
            transactions.putResource(key, Boolean.TRUE);
            run(work);
        }
    }
}
