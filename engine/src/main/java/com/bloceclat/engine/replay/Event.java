package com.bloceclat.engine.replay;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/** One event of a replay: a placement, a hint shown or an undo. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = Event.Place.class, name = "place"),
    @JsonSubTypes.Type(value = Event.Hint.class, name = "hint"),
    @JsonSubTypes.Type(value = Event.Undo.class, name = "undo")
})
public sealed interface Event {
    int round();

    /** The piece of {@code slot} placed with its top-left corner at (row, col). */
    record Place(int round, int slot, int row, int col) implements Event {
    }

    record Hint(int round) implements Event {
    }

    record Undo(int round) implements Event {
    }
}
