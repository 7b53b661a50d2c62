package com.bloceclat.game.service;

import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import com.bloceclat.game.GameEntity;
import com.bloceclat.game.GameEvent;
import com.bloceclat.game.MatchEntity;

/** The games in PostgreSQL, through their Panache entities. */
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
    }

    @Override
    public void append(GameEvent e) {
        e.persist();
    }

    @Override
    public MatchEntity match(UUID id) {
        return MatchEntity.findById(id);
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
