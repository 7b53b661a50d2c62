package com.bloceclat.game.messaging;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.jboss.logging.Logger;

import com.bloceclat.game.config.GameConfig;

import io.agroal.api.AgroalDataSource;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.health.api.Wellness;

/**
 * What waits in the outbox, for operators. Kafka is not on a request's path (the outbox holds the messages), so a
 * broker that is down is not a readiness matter: it shows here instead, as the gauges {@code outbox.pending},
 * {@code outbox.oldest.seconds} and {@code outbox.parked.rows} (rows parked so far, beside the counter
 * {@code outbox.parked} of this replica's parkings), and as the wellness check {@code outbox}
 * ({@code /q/health/well}), DOWN once the oldest unsent message is older than {@code bloc.outbox.late-after}.
 * Read every {@code bloc.outbox.backlog-interval} by one query, so a scrape or a health call never touches the
 * database; until the first read (or after a read failed) the check says DOWN with the reason.
 */
@Wellness
@ApplicationScoped
public class OutboxBacklog implements HealthCheck {

    private static final Logger LOG = Logger.getLogger(OutboxBacklog.class);

    /** The counter of failed reads of the outbox. */
    public static final String READ_FAILURES = "outbox.backlog.read.failures";

    /** The read's name for the scheduler; its failures are counted in {@link #READ_FAILURES}. */
    public static final String JOB = "outbox-backlog";

    /** The outbox at one instant: unsent rows, the age of the oldest (zero when none), parked rows. */
    public record Snapshot(long pending, Duration oldest, long parked, Instant at) {

        /** Late when a message has waited longer than {@code lateAfter}: the relay cannot send. */
        public boolean late(Duration lateAfter) {
            return oldest.compareTo(lateAfter) > 0;
        }
    }

    @Inject
    AgroalDataSource dataSource;

    @Inject
    GameConfig.Outbox config;

    @Inject
    MeterRegistry metrics;

    private volatile Snapshot last;
    private volatile String failure = "not read yet";
    private volatile boolean failing;

    @PostConstruct
    void gauges() {
        Gauge.builder("outbox.pending", this, b -> b.last == null ? Double.NaN : b.last.pending())
                .description("Messages waiting in the outbox to be sent to Kafka").register(metrics);
        Gauge.builder("outbox.oldest.seconds", this,
                b -> b.last == null ? Double.NaN : b.last.oldest().toMillis() / 1e3)
                .description("Age of the oldest message waiting in the outbox").register(metrics);
        Gauge.builder("outbox.parked.rows", this, b -> b.last == null ? Double.NaN : b.last.parked())
                .description("Messages set aside for good: the broker can never take them").register(metrics);
    }

    @Scheduled(identity = JOB, every = "${bloc.outbox.backlog-interval:10s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void read() {
        try (Connection c = dataSource.getConnection();
                PreparedStatement q = c.prepareStatement("SELECT count(*) FILTER (WHERE parked_at IS NULL), "
                        + "min(created_at) FILTER (WHERE parked_at IS NULL), "
                        + "count(*) FILTER (WHERE parked_at IS NOT NULL), now() FROM outbox");
                ResultSet r = q.executeQuery()) {
            r.next();
            Timestamp oldest = r.getTimestamp(2);
            Instant now = r.getTimestamp(4).toInstant();
            Duration age = oldest == null ? Duration.ZERO : Duration.between(oldest.toInstant(), now);
            took(new Snapshot(r.getLong(1), age, r.getLong(3), now));
        } catch (SQLException e) {
            failed(e.getMessage());
        }
    }

    /** A read of the outbox: the gauges and the check say it from now on. */
    void took(Snapshot s) {
        if (failing) {
            LOG.infof("outbox backlog read again: %d pending", s.pending());
        }
        failing = false;
        last = s;
        failure = null;
    }

    /**
     * A read that failed: the gauges say nothing (NaN) until the next read, as before the first one. They kept the
     * last read's figures, so a backlog growing while the outbox could not be read showed as the old one (an alert on
     * {@code outbox_oldest_seconds} stayed quiet while the check said DOWN), and the failure was a debug line. A NaN
     * compares false in an alert rule, so each failed read is also counted ({@code outbox.backlog.read.failures}).
     */
    void failed(String why) {
        metrics.counter(READ_FAILURES).increment();
        if (!failing) {
            LOG.warnf("outbox backlog not read (said again only once it is read): %s", why);
        }
        failing = true;
        last = null;
        failure = "cannot read the outbox: " + why;
    }

    @Override
    public HealthCheckResponse call() {
        Snapshot s = last;
        String why = failure;
        if (s == null || why != null) {
            return HealthCheckResponse.named("outbox").down()
                    .withData("reason", why == null ? "not read" : why).build();
        }
        boolean late = s.late(config.lateAfter());
        var response = HealthCheckResponse.named("outbox").status(!late)
                .withData("pending", s.pending())
                .withData("oldestSeconds", s.oldest().toSeconds())
                .withData("parked", s.parked())
                .withData("readAt", s.at().toString());
        if (late) {
            response.withData("reason", "a message has waited more than " + config.lateAfter().toSeconds()
                    + " s: Kafka unreachable or the relay stuck");
        }
        return response.build();
    }
}
