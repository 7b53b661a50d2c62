package com.bloceclat.leaderboard.rest;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.SimpleResourceInfo;

import com.bloceclat.common.limits.BucketsPerKey;
import com.bloceclat.common.rest.Problem;
import com.bloceclat.common.security.ClientKey;
import com.bloceclat.leaderboard.config.LeaderboardConfig;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.ext.web.RoutingContext;

/**
 * The boards' reads (every request of {@link LeaderboardResource}, by the resource Quarkus REST routed it to, so that
 * no spelling of its path goes past) one client may make on this replica:
 * {@code bloc.leaderboard.reads-per-second-per-client} (10) a second on average, in bursts of
 * {@code reads-burst-per-client} (50), a player by token and anyone else by address ({@link ClientKey}); past it the
 * read is refused with 429 and {@code Retry-After} before any of its work. The public reads need no login, and a
 * standing's rank costs more the lower it is: without a rate one client's flood held the database's connections and
 * every other reader waited. Counted in {@code leaderboard_reads_refused_total}. A bucket is forgotten once full again,
 * at most {@value #CLIENTS} kept ({@link BucketsPerKey}).
 */
@ApplicationScoped
public class ReadRate {

    private static final int CLIENTS = 100_000;

    @Inject
    LeaderboardConfig config;

    @Inject
    MeterRegistry registry;

    private BucketsPerKey buckets;
    private Counter refused;

    @PostConstruct
    void start() {
        buckets = new BucketsPerKey(config.readsPerSecondPerClient(), config.readsBurstPerClient(), CLIENTS,
                System::nanoTime);
        refused = Counter.builder("leaderboard.reads.refused")
                .description("Reads of the boards refused with 429: past the client's rate (ReadRate)")
                .register(registry);
    }

    /** On the I/O thread: a refused read takes no worker thread (the resource's methods are blocking). */
    @ServerRequestFilter(nonBlocking = true)
    public Response limit(SimpleResourceInfo resource, RoutingContext ctx) {
        if (resource.getResourceClass() != LeaderboardResource.class) {
            return null;
        }
        // the identity authentication has set on the request (the CDI bean may not be resolved on this thread yet)
        long waitNanos = buckets.take(ClientKey.of(ctx), 1);
        if (waitNanos == 0) {
            return null;
        }
        refused.increment();
        long retry = Math.max(1, (long) Math.ceil(waitNanos / 1e9));
        return Problem.of(Response.Status.TOO_MANY_REQUESTS, "Too many reads of the boards: at most "
                + config.readsPerSecondPerClient() + " a second for one client, in bursts of "
                + config.readsBurstPerClient() + "; ask again in " + retry + " s.").toResponse()
                .header("Retry-After", retry).build();
    }
}
