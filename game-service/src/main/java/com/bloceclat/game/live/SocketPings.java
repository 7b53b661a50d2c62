package com.bloceclat.game.live;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import com.bloceclat.common.jobs.JobFailures;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;

/**
 * Every {@code bloc.live.ping-every} (the Quarkus scheduler), pings each match socket of this replica through
 * {@link Frames}: the ping is a write like any answer, so one its socket has not taken within
 * {@code bloc.live.send-timeout} closes that socket (a browser answers with a pong, which keeps it from looking
 * silent: {@link RaceHeartbeat}). Quarkus's own pings ({@code quarkus.websockets-next.server.auto-ping-interval},
 * not used) are written without a timeout, and what the WebSocket layer writes by itself, a pong for every ping the
 * client sends, is seen by nothing else: a client sending pings within its rate and reading nothing kept its socket,
 * its pongs piling up in memory without end. Behind them, this ping is never taken.
 */
@ApplicationScoped
public class SocketPings {

    private static final Logger LOG = Logger.getLogger(SocketPings.class);

    /** The scheduler's identity of the pings. */
    public static final String JOB = "socket-pings";

    @Inject
    Frames frames;

    @Inject
    MeterRegistry metrics;

    @Scheduled(identity = JOB, every = "${bloc.live.ping-every:10s}", delayed = "${bloc.live.ping-every:10s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void ping() {
        try {
            LiveSockets.seated().forEach(frames::ping);
        } catch (RuntimeException e) {
            JobFailures.count(metrics, JOB);
            LOG.warnf(e, "Pinging the match sockets failed; the next pass tries again");
        }
    }
}
