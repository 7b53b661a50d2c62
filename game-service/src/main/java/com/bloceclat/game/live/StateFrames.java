package com.bloceclat.game.live;

import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import com.bloceclat.game.service.MatchService;
import com.bloceclat.game.service.Requester;
import com.bloceclat.game.service.Views.GameView;
import com.bloceclat.game.service.Views.MatchView;

import io.quarkus.websockets.next.WebSocketConnection;

/**
 * The {@code state} frames a socket asks for (on connection, {@code sync}, {@code resign}), sent in order with the live
 * consumer's updates: never after an update newer than them ({@link WatchedMatches}).
 */
@Singleton
public class StateFrames {

    private static final Logger LOG = Logger.getLogger(StateFrames.class);

    /** Reads of a match's state at most before its frame is sent as it is. */
    static final int READS = 3;

    @Inject
    MatchService matches;

    @Inject
    Frames frames;

    /**
     * Sends the match's state, {@code read} if the live consumer has read no later change of the match since, else
     * read again, so that no state frame goes after an update newer than it. After {@value #READS} reads, or when a
     * read again fails, the last read goes as it is (as every state did before): its seat is shown the match's next
     * change at once.
     */
    void send(WebSocketConnection socket, UUID matchId, Requester requester, MatchView read) {
        MatchView view = read;
        for (int reads = 1; ; reads++) {
            String frame = new ServerFrame.State(view).toJson();
            List<Integer> versions = view.games().stream().map(GameView::version).toList();
            if (LiveSockets.sendIfCurrent(matchId, versions, () -> frames.send(socket, frame))) {
                return;
            }
            try {
                if (reads < READS) {
                    view = matches.state(matchId, requester);
                    continue;
                }
            } catch (RuntimeException e) {
                LOG.debugf("State of match %s not read again, the one read sent: %s", matchId, e.getMessage());
            }
            frames.send(socket, frame);
            return;
        }
    }
}
