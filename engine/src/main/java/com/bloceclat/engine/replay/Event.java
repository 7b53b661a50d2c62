package com.bloceclat.engine.replay;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * One event of a replay: a placement, a hint shown or an undo.
 *
 * <p>Sealed, and taken apart only through {@link Visitor}: a new event type cannot compile until every visitor (the
 * engine's {@code Game.apply} first of all) says what it does. Java 17 has no exhaustive switch over a sealed
 * interface; the visitor is that switch.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = Event.Place.class, name = "place"),
    @JsonSubTypes.Type(value = Event.Hint.class, name = "hint"),
    @JsonSubTypes.Type(value = Event.Undo.class, name = "undo")
})
public sealed interface Event {
    int round();

    /** Calls the visitor's method for this event's type. */
    <R> R accept(Visitor<R> visitor);

    /** One method per event type: the exhaustive switch over events. */
    interface Visitor<R> {
        R place(Place place);

        R hint(Hint hint);

        R undo(Undo undo);
    }

    /** The piece of {@code slot} placed with its top-left corner at (row, col). */
    record Place(int round, int slot, int row, int col) implements Event {
        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.place(this);
        }
    }

    record Hint(int round) implements Event {
        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.hint(this);
        }
    }

    record Undo(int round) implements Event {
        @Override
        public <R> R accept(Visitor<R> visitor) {
            return visitor.undo(this);
        }
    }
}
