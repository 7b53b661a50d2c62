package com.bloceclat.solver.client;

import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.Dependent;

import org.eclipse.microprofile.faulttolerance.ExecutionContext;
import org.jboss.logging.Logger;

import io.smallrye.faulttolerance.api.BeforeRetryHandler;

/** Counts and logs each attempt of {@link SolverClient#solve} that is retried, with what made it fail. */
@Dependent
public class SolverRetries implements BeforeRetryHandler {

    static final AtomicLong COUNT = new AtomicLong();
    private static final Logger LOG = Logger.getLogger(SolverRetries.class);

    @Override
    public void handle(ExecutionContext context) {
        COUNT.incrementAndGet();
        LOG.debugf("Retrying a solve on another replica after: %s", context.getFailure());
    }
}
