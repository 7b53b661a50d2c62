package com.bloceclat.game.service;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

import com.bloceclat.game.service.Views.Suggestion;

/**
 * A turn of an AI game a replica holds: when it is due (application clock), whether it follows a wait for the person
 * (its lateness is then not the AI's: not counted), and the rest of the round's plan the solver answered, or null
 * (the turn asks).
 */
record AiTurn(UUID gameId, OffsetDateTime due, boolean waited, Plan plan) {

    /**
     * The placements left of the solver's answer for a round, to play in order, valid while the game's event count is
     * {@code eventCount} (only its AI changes an AI game: the count moves only with its own placements).
     */
    record Plan(int eventCount, List<Suggestion> placements) {
    }
}
