package com.bloceclat.game.service;

import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;

import com.bloceclat.game.GameEntity;
import com.bloceclat.game.GameEvent;
import com.bloceclat.game.MatchEntity;

/**
 * The games in PostgreSQL, through their Panache entities, but for the events: the move path's one insert goes
 * straight to JDBC on the transaction's connection (no entity to manage, dirty-check or flush; docs/game-service.md
 * "Lean writes").
 */
@ApplicationScoped
class DbGameStore implements GameStore {

    @Override
    public GameEntity locked(UUID id) {
        return GameEntity.lockedById(id);
    }

    @Override
    public GameEntity read(UUID id) {
        return GameEntity.findById(id);
    }

    @Override
    public List<GameEvent> events(GameEntity g) {
        return g.events();
    }

    @Override
    public void insert(GameEntity g) {
        g.persist();
        // written now: the events appended to it go to the database by JDBC and refer to its row
        GameEntity.flush();
    }

    @Override
    public void append(GameEvent e) {
        GameEvent.insert(e);
    }

    @Override
    public MatchEntity match(UUID id) {
        return MatchEntity.findById(id);
    }

    @Override
    public MatchEntity lockedMatch(UUID id) {
        return MatchEntity.lockedById(id);
    }

    @Override
    public GameEntity lockedSeat(UUID matchId, int seat) {
        GameEntity g = seat(matchId, seat);
        if (g != null) {
            // refreshed under the lock: the row read just before may have changed since
            GameEntity.getEntityManager().refresh(g, LockModeType.PESSIMISTIC_WRITE);
        }
        return g;
    }

    @Override
    public GameEntity seat(UUID matchId, int seat) {
        return GameEntity.find("matchId = ?1 and seat = ?2", matchId, seat).firstResult();
    }

    @Override
    public void seen(UUID gameId) {
        GameEntity.seen(List.of(gameId));
    }
}
