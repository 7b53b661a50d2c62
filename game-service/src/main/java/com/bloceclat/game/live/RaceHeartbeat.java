package com.bloceclat.game.live;

import java.sql.SQLException;
import java.util.Set;
import java.util.UUID;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;

import com.bloceclat.common.db.OwnConnection;
import com.bloceclat.common.jobs.JobFailures;
import com.bloceclat.game.GameEntity;
import com.bloceclat.game.config.GameConfig;
import com.bloceclat.game.service.RaceReaper;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.websockets.next.CloseReason;
import io.quarkus.websockets.next.WebSocketConnection;

/**
 * Every {@code bloc.race.heartbeat} (the Quarkus scheduler), marks in one UPDATE, on a connection of its own outside
 * the pool, the race games whose player has a match socket open on this replica as seen now, so that
 * {@code RaceReaper} (on any replica) knows they are there; a socket whose client sent nothing, not even a pong to the
 * server's pings, for {@code bloc.live.silent-after} keeps no one, and is closed (any mode).
 */
@ApplicationScoped
public class RaceHeartbeat {

    private static final Logger LOG = Logger.getLogger(RaceHeartbeat.class);

    @Inject
    GameConfig.Race config;

    @Inject
    GameConfig.Live live;

    @Inject
    Frames frames;

    @Inject
    MeterRegistry metrics;

    @Inject
    RaceReaper reaper;

    /**
     * The beat's own connection, outside the pool: a replica whose pool an overload keeps full still marks its players
     * seen (with a pooled connection its beats timed out, and the other replicas' reapers resigned its players).
     */
    private final OwnConnection connection = new OwnConnection(ConfigProvider.getConfig(), "race heartbeat");

    @PreDestroy
    void close() {
        connection.close();
    }

    /** The scheduler's identity of the beat. */
    public static final String JOB = "race-heartbeat";

    /** One beat, by the Quarkus scheduler ({@code SKIP}: one still running is not joined); a failed one is logged. */
    @Scheduled(identity = JOB, every = "${bloc.race.heartbeat:5s}", delayed = "${bloc.race.heartbeat:5s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    public void beat() {
        long silentAfter = live.silentAfter().toNanos();
        for (WebSocketConnection gone : LiveSockets.silent(silentAfter)) {
            // logged once: the socket stays seated until its @OnClose, a few beats later when its client never answers
            // the close frame
            if (frames.close(gone, "silent", CloseReason.NORMAL)) {
                LOG.infof("Socket %s closed: nothing from its client for over %s", gone.id(), live.silentAfter());
            }
        }
        try {
            Set<UUID> here = LiveSockets.raceGamesWithSockets(silentAfter);
            if (!here.isEmpty()) {
                connection.use(c -> GameEntity.seen(c, here));
            }
        } catch (SQLException | RuntimeException e) {
            JobFailures.count(metrics, JOB);
            // the players of this replica's sockets are not marked seen: its reaper resigns nobody until beats have
            // gone through for a whole timeout again (a database that answers reads but refuses this write, read-only
            // or full, looked reachable to the reaper, which resigned every race in play once the timeout had passed)
            reaper.unreached();
            LOG.warnf("Race heartbeat failed (%s); the next one retries, and this replica resigns no race until the "
                    + "beats have gone through for %s", e.getMessage(), config.disconnectTimeout());
        }
    }
}
