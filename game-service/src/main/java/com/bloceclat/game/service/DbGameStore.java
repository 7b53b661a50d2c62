package com.bloceclat.game.service;

import java.time.LocalDate;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.bloceclat.engine.Level;
import com.bloceclat.game.GameEntity;
import com.bloceclat.game.GameEvent;
import com.bloceclat.game.GameRows;
import com.bloceclat.game.MatchEntity;
import com.bloceclat.game.MatchRows;
import com.bloceclat.game.OutboxMessage;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The games in PostgreSQL: their rows and events, and the matches' rows, by plain JDBC on the transaction's connection
 * ({@link GameRows}, {@link GameEvent#ofGame}, {@link MatchRows}: no entity to load,
 * snapshot, dirty-check or flush; docs/game-service.md "Lean writes").
 */
@ApplicationScoped
class DbGameStore implements GameStore {

    private final DistributionSummary eventsRead;

    @Inject
    DbGameStore(MeterRegistry registry) {
        eventsRead = DistributionSummary.builder("bloc.game.events.read")
                .description("Events read from PostgreSQL per read of a game's events: all of them for a game this "
                        + "replica had not cached or a command that needs its history, the missing ones for a stale "
                        + "cached state, a page of them for a race's held-back grid")
                .register(registry);
    }

    @Override
    public GameEntity locked(UUID id) {
        return GameRows.byId(id, true);
    }

    @Override
    public GameEntity lockedIfOwned(UUID id, String subject, String guestTokenHash) {
        return GameRows.byIdIfOwned(id, subject, guestTokenHash);
    }

    @Override
    public GameEntity read(UUID id) {
        return GameRows.byId(id, false);
    }

    @Override
    public List<GameEvent> events(GameEntity g, int from, int limit) {
        List<GameEvent> events = GameEvent.ofGame(g.id, from, limit);
        eventsRead.record(events.size());
        return events;
    }

    @Override
    public void insert(GameEntity g) {
        GameRows.insert(g);
    }

    @Override
    public boolean hasDailyGame(String subject, LocalDate day, Level level) {
        return GameEntity.dailyLevels(subject, day).containsKey(level);
    }

    @Override
    public UUID countingDailyInPlay(String subject, LocalDate day, Level level) {
        return GameEntity.countingDailyInPlay(subject, day, level);
    }

    @Override
    public void practiceDailiesInPlay(String subject, LocalDate day, Level level) {
        GameEntity.practiceDailiesInPlay(subject, day, level);
    }

    @Override
    public void write(GameEvent event, GameEntity g, List<OutboxMessage.Outgoing> messages) {
        GameRows.write(event, g, messages);
    }

    @Override
    public MatchEntity match(UUID id) {
        return MatchRows.byId(id, false);
    }

    @Override
    public MatchEntity lockedMatch(UUID id) {
        return MatchRows.byId(id, true);
    }

    @Override
    public void updateMatch(MatchEntity m) {
        MatchRows.update(m);
    }

    @Override
    public GameEntity lockedSeat(UUID matchId, int seat) {
        return GameRows.seat(matchId, seat, true);
    }

    @Override
    public GameEntity lockedSeatIfFree(UUID matchId, int seat) {
        return GameRows.seatIfFree(matchId, seat);
    }

    @Override
    public GameEntity seat(UUID matchId, int seat) {
        return GameRows.seat(matchId, seat, false);
    }

    @Override
    public List<GameEntity> seats(UUID matchId) {
        return GameRows.ofMatch(matchId);
    }

    @Override
    public void seen(UUID gameId) {
        GameEntity.seen(List.of(gameId));
    }
}
