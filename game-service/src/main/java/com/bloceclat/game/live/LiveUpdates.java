package com.bloceclat.game.live;

import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

import com.bloceclat.game.service.MatchService;
import com.fasterxml.jackson.databind.JsonNode;

import io.quarkus.websockets.next.OpenConnections;
import io.quarkus.websockets.next.WebSocketConnection;
import io.smallrye.common.annotation.Blocking;

/**
 * Every replica reads all of {@code game-events} (a consumer group of its own, from the latest offset) and pushes
 * each change of a match's game to the sockets of that match it holds, so a player sees the other seat whichever
 * replica the other seat's moves went to. When a game ends the whole state follows, for the match's result.
 */
@ApplicationScoped
public class LiveUpdates {

    /** This replica's channel on topic game-events. */
    public static final String CHANNEL = "game-events-live";

    private static final Logger LOG = Logger.getLogger(LiveUpdates.class);

    @Inject
    OpenConnections connections;

    @Inject
    MatchService matches;

    /** A poll's worth of records at once (channel in batch mode): one hand-over to a worker thread per poll. */
    @Incoming(CHANNEL)
    @Blocking
    public void onEvents(List<String> payloads) {
        for (String payload : payloads) {
            onEvent(payload);
        }
    }

    void onEvent(String payload) {
        if (!payload.contains("\"matchId\"")) {
            return; // a solo game's change (most of the topic): nobody watches it live, no need to parse it
        }
        JsonNode event;
        try {
            event = ClientFrame.Json.MAPPER.readTree(payload);
        } catch (Exception e) {
            LOG.warnf("Unreadable game-events record skipped: %s", e.getMessage());
            return;
        }
        JsonNode matchField = event.get("matchId");
        if (matchField == null) {
            return;
        }
        UUID matchId = UUID.fromString(matchField.asText());
        String update = new ServerFrame.Update(event).toJson();
        boolean ended = !"PLAYING".equals(event.path("status").asText());
        for (WebSocketConnection c : connections) {
            MatchSocket.Seat seat = MatchSocket.SEATS.get(c.id());
            if (seat == null || !seat.matchId().equals(matchId) || !c.isOpen()) {
                continue;
            }
            try {
                c.sendTextAndAwait(update);
                if (ended) {
                    c.sendTextAndAwait(new ServerFrame.State(matches.state(matchId, seat.requester())).toJson());
                }
            } catch (RuntimeException e) {
                LOG.debugf("Update not delivered to %s: %s", c.id(), e.getMessage());
            }
        }
    }
}
