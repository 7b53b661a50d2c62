package com.bloceclat.game.rest;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The bodies {@link GameResource} reads, each field checked with the message a client is answered. */
public final class GameRequests {

    private GameRequests() {
    }

    public record NewGameRequest(
            @NotBlank(message = "name a level: EASY, MEDIUM, HARD, EXPERT or DIABOLICAL") String level,
            @Schema(description = "A seed of your own (a challenge link): the game is played normally but never counts")
            Long seed,
            @Schema(description = "True for today's daily challenge") Boolean daily,
            @Schema(description = "With daily: true, asks for a practice game where the player's daily game of "
                    + "this level that counts is still in play (that one then stops counting: else this one could "
                    + "scout its pieces for it); without it, such a start is 409. It changes nothing else: a "
                    + "player's first daily game of the day and level counts whatever this says") Boolean practice) {
    }

    public record MoveRequest(
            @NotNull(message = "is required (1 for the first move, then one more each time)")
            @Min(value = 1, message = "starts at 1") Integer moveNumber,
            @NotNull(message = "is required (0, 1 or 2)") @Min(value = 0, message = "must be 0, 1 or 2")
            @Max(value = 2, message = "must be 0, 1 or 2") Integer slot,
            @NotNull(message = "is required (0 to 7)") @Min(value = 0, message = "must be between 0 and 7")
            @Max(value = 7, message = "must be between 0 and 7") Integer row,
            @NotNull(message = "is required (0 to 7)") @Min(value = 0, message = "must be between 0 and 7")
            @Max(value = 7, message = "must be between 0 and 7") Integer col) {
    }

    public record UndoRequest(
            @NotNull(message = "is required: the number of the move to take back")
            @Min(value = 1, message = "starts at 1") Integer moveNumber) {
    }
}
