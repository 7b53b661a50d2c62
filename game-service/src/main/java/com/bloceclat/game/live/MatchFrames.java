package com.bloceclat.game.live;

import java.util.UUID;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.ws.rs.WebApplicationException;

import org.jboss.logging.Logger;

import com.bloceclat.common.rest.Problem;
import com.bloceclat.common.rest.ProblemMappers;
import com.bloceclat.game.live.LiveSockets.Owner;
import com.bloceclat.game.live.LiveSockets.Seat;
import com.bloceclat.game.service.GameService;
import com.bloceclat.game.service.MatchService;
import com.bloceclat.game.service.Requester;
import com.bloceclat.game.service.Views.GameView;
import com.bloceclat.game.service.Views.MatchView;

import io.quarkus.websockets.next.WebSocketConnection;

/**
 * What a match socket's work does, on a worker thread, apart from its callbacks ({@link MatchSocket}, on the event
 * loop, which must not wait): the opening's database read and seat, and each frame's answer. Always handed the
 * connection itself, never the endpoint's injected one (a proxy usable only while a callback of its socket runs).
 */
@Singleton
public class MatchFrames {

    private static final Logger LOG = Logger.getLogger(MatchFrames.class);

    @Inject
    MatchService matches;

    @Inject
    GameService games;

    @Inject
    Frames frames;

    @Inject
    StateFrames states;

    /** On a worker: reads the match, seats the socket, sends its state and lets its frames be handled. */
    void seat(WebSocketConnection socket, SocketInbox inbox, UUID matchId, Requester requester, String client,
            Owner owner) {
        MatchView view;
        try {
            view = matches.state(matchId, requester);
        } catch (WebApplicationException e) {
            LiveSockets.release(client, owner);
            Frames.refuse(socket, e.getResponse().getStatus(), e.getMessage());
            return;
        } catch (RuntimeException e) {
            LiveSockets.release(client, owner);
            ServerFrame.Error error = unexpected(e);
            Frames.refuse(socket, error.status(), error.message());
            return;
        }
        boolean seated = false;
        try {
            UUID gameId = view.games().get(view.yourSeat()).id();
            Seat seat = new Seat(matchId, view.mode(), view.yourSeat(), gameId,
                    view.games().stream().map(GameView::id).toList(), requester);
            LiveSockets.seat(socket, seat);
            seated = true;
            if (!socket.isOpen()) {
                // closed while the state was read: @OnClose may have run before the seat was there to remove
                LiveSockets.closed(socket);
                return;
            }
            // matches.state has just marked a race player as seen: the heartbeat keeps it so while this stays open
            states.send(socket, matchId, requester, view);
            inbox.open();
        } catch (RuntimeException e) {
            // a bug: the socket would stay open without a state, its frames never handled
            LOG.errorf(e, "Socket %s not seated", socket.id());
            if (seated) {
                LiveSockets.closed(socket); // counted off once, here or by @OnClose
            } else {
                LiveSockets.release(client, owner);
            }
            ServerFrame.Error error = unexpected(e);
            Frames.refuse(socket, error.status(), error.message());
        }
    }

    /** Handles a frame let through, on a worker: {@code socket} is the connection itself, not this callback's proxy. */
    void handle(WebSocketConnection socket, String text) {
        if (socket.isClosed() || frames.closing(socket.id())) {
            return;
        }
        String answer = answer(socket, text);
        if (answer != null) {
            frames.send(socket, answer);
        }
    }

    /** The frame's answer; null when it has been sent already (a state, {@link StateFrames}). */
    private String answer(WebSocketConnection socket, String text) {
        Seat seat = LiveSockets.seatOf(socket.id());
        if (seat == null) {
            return new ServerFrame.Error(403, "This connection is not part of a match.").toJson();
        }
        if (text == null) {
            return new ServerFrame.Error(400, "Malformed frame: a frame is JSON text, not binary.").toJson();
        }
        ClientFrame frame;
        try {
            frame = ClientFrame.parse(text);
        } catch (ClientFrame.MalformedFrameException e) {
            return new ServerFrame.Error(400, "Malformed frame: " + e.getMessage()).toJson();
        }
        try {
            ServerFrame answer;
            if (frame instanceof ClientFrame.Move m) {
                answer = new ServerFrame.Moved(games.move(seat.gameFor(m.seat()), seat.requester(), m.moveNumber(),
                        m.slot(), m.row(), m.col()));
            } else if (frame instanceof ClientFrame.Resign || frame instanceof ClientFrame.Sync) {
                if (frame instanceof ClientFrame.Resign r) {
                    games.resign(seat.gameFor(r.seat()), seat.requester());
                }
                states.send(socket, seat.matchId(), seat.requester(),
                        matches.state(seat.matchId(), seat.requester()));
                return null;
            } else {
                answer = new ServerFrame.Pong();
            }
            return answer.toJson();
        } catch (WebApplicationException e) {
            return new ServerFrame.Error(e.getResponse().getStatus(), e.getMessage()).toJson();
        } catch (RuntimeException e) {
            return unexpected(e).toJson();
        }
    }

    /**
     * What the same REST call would answer, by the same rule ({@code ProblemMappers.unexpectedProblem}): the database
     * away or busy is a 503, a unique key taken meanwhile a 409, anything else a 500, each logged as that rule says.
     */
    private static ServerFrame.Error unexpected(RuntimeException e) {
        Problem problem = ProblemMappers.unexpectedProblem(e);
        return new ServerFrame.Error(problem.status(), problem.detail());
    }
}
