package com.bloceclat.game.live;

import com.bloceclat.game.service.Views.MatchView;
import com.bloceclat.game.service.Views.MoveView;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

/** A frame game-service sends over the match socket; each carries its {@code type}. */
public sealed interface ServerFrame {

    String type();

    /** The whole match: on connection, on sync, and when the match's status changes. */
    record State(MatchView match) implements ServerFrame {
        @JsonProperty
        public String type() {
            return "state";
        }
    }

    /** The answer to the player's own move. */
    record Moved(MoveView result) implements ServerFrame {
        @JsonProperty
        public String type() {
            return "moved";
        }
    }

    /**
     * A change to one game of the match (either seat), as published on game-events, or, for the other seat of a
     * versus-AI or race match while it is in a later round than the viewer's, held back: board and streak as they
     * were at the end of the viewer's round, no {@code piece}/{@code slot}/{@code row}/{@code col}, and
     * {@code gridRound} (see {@code MatchVisibility}).
     */
    record Update(JsonNode game) implements ServerFrame {
        @JsonProperty
        public String type() {
            return "update";
        }
    }

    /**
     * A frame that was refused: {@code status} is the HTTP status the same request would get (400 malformed, 403,
     * 404, 409 illegal, 429 too fast).
     */
    record Error(int status, String message) implements ServerFrame {
        @JsonProperty
        public String type() {
            return "error";
        }
    }

    record Pong() implements ServerFrame {
        @JsonProperty
        public String type() {
            return "pong";
        }
    }

    default String toJson() {
        try {
            return ClientFrame.Json.WRITER.writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
