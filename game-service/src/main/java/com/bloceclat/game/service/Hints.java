package com.bloceclat.game.service;

import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.bloceclat.game.GameEntity;
import com.bloceclat.game.GameEvent;
import com.bloceclat.game.config.GameConfig;
import com.bloceclat.game.service.Views.HintView;
import com.bloceclat.game.service.Views.Suggestion;

/**
 * Solo: a hint, in two transactions around the solver's call (no row lock is held while the solver works):
 * {@link #ask} reads the position, {@link #record} appends the HINT event under the row lock if the game is where it
 * was and still under its cap of hints. The cap is checked again under the lock, so two hints asked at once at
 * cap - 1 never both count.
 */
@ApplicationScoped
class Hints {

    @Inject
    GameLog log;

    @Inject
    GameStore store;

    @Inject
    GameViews views;

    @Inject
    GameConfig.Limits limits;

    /** The position a hint is asked for, as it was at {@code eventCount} events. */
    record Asked(SolverQuestions.Question question, int eventCount) {
    }

    /**
     * The question for the solver, if a hint may be given now. The state is the cached one (no event read when this
     * replica holds the game), and a game at its cap of events is refused before anything is read: before, every ask
     * read all the game's events, unlocked, so asks at once on a game of 100,000 events each held them all.
     */
    Asked ask(UUID id, Requester requester) {
        GameEntity g = Refusals.soloOnly(log.read(id, requester));
        Refusals.ifFinished(store, g);
        Rebuilt r = underCaps(g);
        return new Asked(SolverQuestions.hint(g.id.toString(), r.game), g.eventCount);
    }

    /** The game's state, if it is under its caps of events (checked first, before any read) and of hints. */
    private Rebuilt underCaps(GameEntity g) {
        Refusals.ifAtCap(limits, g, null, 0);
        Rebuilt r = log.current(g);
        Refusals.ifAtCap(limits, g, GameEvent.Type.HINT, r.hints);
        return r;
    }

    /** Records the hint the solver gave ({@code suggestions}) for the position {@code asked} about. */
    HintView record(UUID id, Requester requester, Asked asked, List<Suggestion> suggestions) {
        GameEntity g = Refusals.soloOnly(log.locked(id, requester));
        Refusals.ifFinished(store, g);
        if (g.eventCount != asked.eventCount()) {
            throw Refusals.conflict("The game changed while the hint was being worked out; ask again.");
        }
        Rebuilt r = underCaps(g);
        r.game.hintShown();
        GameEvent event = new GameEvent();
        event.type = GameEvent.Type.HINT;
        event.round = r.game.round();
        log.append(g, r, event);
        return new HintView(suggestions, views.of(g, r));
    }
}
