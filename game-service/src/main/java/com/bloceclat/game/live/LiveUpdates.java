package com.bloceclat.game.live;

import java.util.Optional;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.header.Header;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

import com.bloceclat.common.events.GameChanged;
import com.bloceclat.game.messaging.OutboxSender;
import com.bloceclat.game.service.MatchService;
import com.bloceclat.game.service.MatchVisibility;
import com.fasterxml.jackson.databind.JsonNode;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.websockets.next.WebSocketConnection;
import io.smallrye.common.annotation.Blocking;

/**
 * Every replica reads all of {@code game-events} (a consumer group of its own, from the latest offset), skips unread the
 * records its header shows to be of games nobody on this replica watches, reads each other record as the
 * {@link GameChanged} it must be ({@link LiveEvent#readEvent}), and pushes
 * each change of a match's game to the sockets of that match it holds, so a player sees the other seat whichever
 * replica the other seat's moves went to. When a game ends the whole state follows, for the match's result.
 * <p>
 * What a frame shows is what its seat may see ({@link MatchService#liveUpdateFor}, {@link MatchVisibility}): in versus
 * AI and online races a change of the other seat that puts it in a later round than the viewer's carries the other
 * seat's board and score as they were at the end of the viewer's round, without the placement, and
 * {@code gridRound}; its round and status are live. When the viewer completes a round of their own, a {@code state} frame follows their
 * update, bringing the grid held back until then.
 */
@ApplicationScoped
public class LiveUpdates {

    /** This replica's channel on topic game-events. */
    public static final String CHANNEL = "game-events-live";

    private static final Logger LOG = Logger.getLogger(LiveUpdates.class);

    @Inject
    MatchService matches;

    @Inject
    MeterRegistry metrics;

    @Inject
    Frames frames;

    /**
     * A poll's worth of records at once (channel in batch mode): one hand-over to a worker thread per poll. A record
     * whose {@code bloc-match} header shows it is of a solo game, or of a match with no socket open or opening on this
     * replica, is skipped without parsing its value ({@link LiveEvent#skippedUnread}; counted in
     * {@code game.live.unread{reason}}): every replica fetches every record, and most are of games nobody on it
     * watches. Every other record is handled on its own: one that cannot be
     * read, or whose delivery fails, is skipped with a log line and counted ({@code game.live.skipped{reason}}), and
     * the channel goes on; nothing a record holds can fail the channel (which would take readiness down on every
     * replica at once, since all of them read every record).
     */
    @Incoming(CHANNEL)
    @Blocking
    public void onEvents(ConsumerRecords<String, String> records) {
        int solo = 0;
        int unwatched = 0;
        for (ConsumerRecord<String, String> r : records) {
            Header liveMatch = r.headers().lastHeader(OutboxSender.LIVE_MATCH_HEADER);
            String skipped = LiveEvent.skippedUnread(liveMatch == null ? null : liveMatch.value(),
                    LiveSockets::watched);
            if (skipped != null) {
                if (skipped.equals("solo")) {
                    solo++;
                } else {
                    unwatched++;
                }
                continue;
            }
            try {
                onEvent(r.value());
            } catch (RuntimeException e) {
                skipped("failed", e.toString());
            }
        }
        if (solo > 0) {
            metrics.counter("game.live.unread", "reason", "solo").increment(solo);
        }
        if (unwatched > 0) {
            metrics.counter("game.live.unread", "reason", "unwatched").increment(unwatched);
        }
    }

    void onEvent(String payload) {
        LiveEvent read;
        try {
            Optional<LiveEvent> match = LiveEvent.readEvent(payload);
            if (match.isEmpty()) {
                return; // a solo game's change (most of the topic): nobody watches it live
            }
            read = match.get();
        } catch (LiveEvent.Unreadable e) {
            skipped(e.reason(), e.getMessage());
            return;
        }
        UUID matchId = read.matchId();
        JsonNode event = read.event();
        boolean ended = read.ended();
        if (read.change().seat() != null) {
            // before any socket is sent it: a state read before this change is read again, not sent after it
            LiveSockets.read(matchId, read.change().seat(), read.change().version());
        }
        for (WebSocketConnection c : LiveSockets.socketsOf(matchId)) {
            LiveSockets.Seat seat = LiveSockets.seatOf(c.id());
            if (seat == null || !c.isOpen() || frames.closing(c.id())) {
                continue;
            }
            try {
                // as this seat may see it: the other seat's grid held back while it is ahead (MatchVisibility)
                Optional<JsonNode> shown = matches.liveUpdateFor(matchId, seat.yourSeat(), event);
                if (shown.isEmpty()) {
                    continue;
                }
                frames.send(c, new ServerFrame.Update(shown.get()).toJson());
                if (ended || completesOwnRound(read.change(), seat.yourSeat())) {
                    // ended: the match's result; a round of one's own completed: the other seat's grid held back
                    // until now, if it was ahead
                    frames.send(c, new ServerFrame.State(matches.state(matchId, seat.requester())).toJson());
                }
            } catch (RuntimeException e) {
                LOG.debugf("Update not delivered to %s: %s", c.id(), e.getMessage());
                metrics.counter("game.live.skipped", "reason", "failed").increment();
            }
        }
    }

    /**
     * Whether the change is a placement of the viewer's own game that completed its round (match games have no undo,
     * so round r is moves 3r+1 to 3r+3): the other seat's grid it may see has moved on, and a {@code state} frame
     * brings it (an update frame could not: its version is not newer).
     */
    static boolean completesOwnRound(GameChanged change, int viewerSeat) {
        return change.seat() != null && change.seat() == viewerSeat && change.type() == GameChanged.Type.PLACE
                && change.placement().moveNumber() % 3 == 0 && MatchVisibility.holdsBack(change.mode().name());
    }

    private void skipped(String reason, String detail) {
        LOG.warnf("game-events record skipped by the live consumer (%s): %s", reason, detail);
        metrics.counter("game.live.skipped", "reason", reason).increment();
    }
}
